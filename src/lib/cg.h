/* cg.h — the cgtools library, libcg: everything the filters use.
 *
 * Data: CgGraph (functions, arcs, costs; cg-graph.h), CgTree (frames;
 * cg-tree.h), CgProfile (what one XML document holds; cg-profile.h).
 * Algorithms: strongly connected components (cg-scc.h) and numbered cycles
 * (cg-cycles.h), collapsing them (cg-collapse.h), cost methods
 * (cg-method.h), Kaes's display tree (cg-display-tree.h).
 * Formats: reading any input (cg-read.h), writing XML, tsv and text.
 */
#pragma once

#include "cg-cli.h"
#include "cg-collapse.h"
#include "cg-contexts.h"
#include "cg-cost.h"
#include "cg-cycles.h"
#include "cg-decompose.h"
#include "cg-diff.h"
#include "cg-demangle.h"
#include "cg-names.h"
#include "cg-display-tree.h"
#include "cg-startup.h"
#include "cg-callers-tree.h"
#include "cg-error.h"
#include "cg-exact.h"
#include "cg-focus.h"
#include "cg-lookup.h"
#include "cg-hide.h"
#include "cg-gprof.h"
#include "cg-graph.h"
#include "cg-histogram.h"
#include "cg-input.h"
#include "cg-method.h"
#include "cg-output.h"
#include "cg-profile.h"
#include "cg-read.h"
#include "cg-scc.h"
#include "cg-spivey.h"
#include "cg-tree.h"
#include "cg-tree-view.h"
#include "cg-value.h"
#include "cg-write-callgrind.h"
#include "cg-write-cycles.h"
#include "cg-write-diff.h"
#include "cg-write-dot.h"
#include "cg-write-folded.h"
#include "cg-write-gprof.h"
#include "cg-write-profile.h"
#include "cg-text.h"
#include "cg-write-summary.h"
#include "cg-write-tree.h"
#include "cg-write-tree-html.h"
#include "cg-write-tree-svg.h"
#include "cg-write-tree-xml.h"
#include "cg-write-tsv.h"
#include "cg-write-xml.h"
