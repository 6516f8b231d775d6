/* cg-error.h — the CG_ERROR domain shared by every cgtools module.
 *
 * Library functions never print, exit or abort on bad input: they return
 * FALSE or NULL and set a GError in this domain.  Messages name the input
 * and the line or byte offset ("FILE:LINE: message"), so tools only prefix
 * their own name.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CG_ERROR (cg_error_quark ())
GQuark cg_error_quark (void);

/**
 * CgError:
 * @CG_ERROR_IO: reading or writing failed (message carries strerror).
 * @CG_ERROR_FORMAT: the input is in no format cgtools knows.
 * @CG_ERROR_PARSE: the input is malformed at the named line or offset.
 * @CG_ERROR_TRUNCATED: the input ends before its structure does.
 * @CG_ERROR_OVERFLOW: a 64-bit counter or a size would overflow.
 * @CG_ERROR_MISMATCH: inputs cannot be combined (event units, histograms).
 * @CG_ERROR_UNSUPPORTED: the data does not allow what was asked (for
 *   example a method that needs measured inclusive costs).
 * @CG_ERROR_USAGE: a request is malformed (unknown event, bad option
 *   value); tools exit with status 2 for this code and 1 for the others.
 * @CG_ERROR_CLOSED: the reader of the output went away (a closed pipe, as
 *   in `cgcost ... | head`); tools end without a message, killed by
 *   SIGPIPE as cat(1) is (status 141 in a shell).
 */
typedef enum {
  CG_ERROR_IO,
  CG_ERROR_FORMAT,
  CG_ERROR_PARSE,
  CG_ERROR_TRUNCATED,
  CG_ERROR_OVERFLOW,
  CG_ERROR_MISMATCH,
  CG_ERROR_UNSUPPORTED,
  CG_ERROR_USAGE,
  CG_ERROR_CLOSED,
} CgError;

/* Receives a warning: a whole message, naming the input and the line or
 * offset as errors do.  Readers and writers take one where they can go on
 * past something the user should hear of. */
typedef void (*CgWarnFunc) (const char *message, gpointer user_data);

G_END_DECLS
