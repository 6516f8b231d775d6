/* cg-error.c — the CG_ERROR quark. */
#include "config.h"

#include "cg-error.h"

G_DEFINE_QUARK (cg-error-quark, cg_error)
