/* cg-method.h — the table of cost methods: choosing one and running it on
 * a profile.
 *
 * One row per method (cg-method.c): its name, what it computes, when
 * `auto` picks it, how it is computed, and what the views say of its
 * results.  Adding a method is one module that computes it and one row;
 * cgcost's and cgtree's --help and the tests that check cgcost(1) read
 * the table.  `auto` takes the best the data allows (design §3): the
 * first row in table order whose data test passes.
 */
#pragma once

#include <glib.h>

#include "cg-cost.h"
#include "cg-profile.h"

G_BEGIN_DECLS

typedef struct {
  CgMethod method;
  const char *name;    /* --method=NAME, and the XML's costs/@method */
  const char *summary; /* one line for --help */
  /* nullable: whether `auto` picks this method for @profile (rows are
   * tried in order); NULL: never picked by auto */
  gboolean (*preferred) (CgProfile *profile);
  /* computes the costs (transfer full); errors when the data do not allow it */
  CgCosts *(*compute) (CgProfile *profile, GError **error);
  /* what the views say of the results: a parenthesised note after
   * "Method: NAME" (static strings) */
  const char *(*note) (const CgCosts *costs);
} CgMethodInfo;

/* The methods, in the order `auto` tries them (AUTO itself is no row);
 * @n_methods receives their number.  (transfer none: a static table) */
const CgMethodInfo *cg_methods (guint *n_methods);

/* The row of @method (NULL for CG_METHOD_AUTO). */
const CgMethodInfo *cg_method_info (CgMethod method);

/* "auto", or the row's name. */
const char *cg_method_to_string (CgMethod method);

/* Finds the method called @name ("auto" included); FALSE when none is. */
gboolean cg_method_from_string (const char *name, CgMethod *method);

/* "auto, exact, measured, decompose or gprof", for messages.  (transfer full) */
char *cg_methods_names (void);

/* The method @method means for @profile: itself, or for CG_METHOD_AUTO the
 * best available: exact when a call tree holds all the costs
 * (cg_exact_applies), measured when the graph has measured inclusive
 * costs, decompose otherwise, which any graph allows.  @error is for
 * methods a future data source may rule out. */
gboolean cg_method_resolve (CgProfile *profile, CgMethod method, CgMethod *resolved,
                            GError **error);

/* The method for comparing @base and @new: @method itself, or for
 * CG_METHOD_AUTO the first row of the table whose data test both pass
 * (so that both are costed alike: exact only where both have call trees
 * or contexts, measured only where both measured inclusive costs). */
gboolean cg_method_resolve_both (CgProfile *base, CgProfile *new, CgMethod method, CgMethod *resolved,
                                 GError **error);

/* Computes the costs of @profile by @method (AUTO resolved first).
 * Returns a new result (transfer full). */
CgCosts *cg_method_compute (CgProfile *profile, CgMethod method, GError **error);

/* The profile's costs when they were made by @method (any method for
 * AUTO), else computes them and stores them in the profile.  Returns them
 * (transfer none). */
CgCosts *cg_method_ensure (CgProfile *profile, CgMethod method, GError **error);

G_END_DECLS
