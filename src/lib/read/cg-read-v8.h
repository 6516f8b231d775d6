/* cg-read-v8.h — reader for V8's CPU profiles, .cpuprofile JSON
 * (formats/v8.md).
 *
 * The Chrome DevTools protocol's Profiler.Profile, as `node --cpu-prof`,
 * Chrome DevTools' "Save profile", Deno (--cpu-prof) and Electron write
 * it: one JSON object with
 *   nodes: [{id, callFrame: {functionName, scriptId, url, lineNumber,
 *     columnNumber}, hitCount, children: [ids], positionTicks, ...}],
 *     the call tree, its first node "(root)";
 *   startTime, endTime: microseconds;
 *   samples: node ids, one per sample, in the order taken;
 *   timeDeltas: microseconds, one per sample (cg-v8-times.h).
 * Parsed with json-glib into memory (the whole document: JSON has no
 * order a reader could stream by, and V8 writes the samples last).
 *
 * What is built: V8's nodes are the call tree G_0 (Kaes 2005, "Computing
 * the call graph"), each node a frame under its parent, the samples
 * charged to the self cost of their node's frame, the graph the frames
 * merged by function, so exact totals (Min_E) hold under recursion.  A
 * function is (object, name): the object the script's url, the name
 * the functionName ("(anonymous)" for ""), with the url and the
 * 1-based line as its source location.  Functions of one name in one
 * script at other lines are other functions: their object is
 * "URL@LINE" (cg_elf_apart_object's convention; "URL@LINE:COLUMN" where
 * they share a line), and so is every anonymous function's, so that no
 * two are one whatever a profile holds.  V8's own nodes keep their
 * names: "(program)" (native code, no JavaScript on the stack),
 * "(garbage collector)", "(idle)" (the thread waiting, where the
 * embedder says so); "(root)" is no function: its children are roots
 * (a sample of "(root)" itself, which V8 does not write, goes to a root
 * function "(root)").  hitCount, positionTicks and the rest are not
 * read: the samples say the same.
 *
 * Events: "wall" (ns), the time the samples stand for (cg-v8-times.h),
 * first, as DevTools shows times; and "samples" (count).
 *
 * Complexity: O(bytes) to parse (json-glib's tree holds the document),
 * O(nodes) with one hash look-up per node id, O(samples log samples) for
 * the times; no recursion.
 */
#pragma once

#include <glib.h>

#include "cg-input.h"
#include "cg-profile.h"
#include "cg-read-options.h"

G_BEGIN_DECLS

/* Adds the V8 CPU profile in @input to @profile (its call tree, created
 * when absent, and its graph).
 * Errors:
 *  - "NAME:LINE:COLUMN: not JSON: ..." (CG_ERROR_PARSE; json-glib's
 *    reason), for input that is not JSON, or not UTF-8;
 *  - "NAME: PATH: ..." (CG_ERROR_PARSE), PATH a JSON path such as
 *    "nodes[3].children[1]": a member missing or of the wrong type, an
 *    integer that is not one or is past 2^53 (JavaScript's safe integers,
 *    where V8's numbers live), a node id negative or repeated, a child or
 *    a sample naming no node, a node listed as a child twice, a node
 *    that is its own ancestor (children forming a cycle), samples and
 *    timeDeltas of different lengths, a sample after endTime;
 *  - CG_ERROR_OVERFLOW when times, costs or the tree pass their 64- or
 *    32-bit limits; CG_ERROR_MISMATCH when the profile's events exist
 *    with other units. */
gboolean cg_read_v8 (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error);

G_END_DECLS
