/* cg-method.h — choosing and running a cost method on a profile.
 *
 * `auto` takes the best the data allows (design §3): exact with a call tree
 * or contexts, measured for callgrind data, an estimate otherwise.
 */
#pragma once

#include <glib.h>

#include "cg-cost.h"
#include "cg-profile.h"

G_BEGIN_DECLS

/* The method @method means for @profile: itself, or for CG_METHOD_AUTO the
 * best available: exact when a call tree holds all the costs
 * (cg_exact_applies), measured when the graph has measured inclusive
 * costs, decompose otherwise, which any graph allows.  @error is for
 * methods a future data source may rule out. */
gboolean cg_method_resolve (CgProfile *profile, CgMethod method, CgMethod *resolved,
                            GError **error);

/* Computes the costs of @profile by @method (AUTO resolved first).
 * Returns a new result (transfer full). */
CgCosts *cg_method_compute (CgProfile *profile, CgMethod method, GError **error);

/* The profile's costs when they were made by @method (any method for
 * AUTO), else computes them and stores them in the profile.  Returns them
 * (transfer none). */
CgCosts *cg_method_ensure (CgProfile *profile, CgMethod method, GError **error);

G_END_DECLS
