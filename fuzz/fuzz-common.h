/* fuzz-common.h — what every fuzz target does after its reader: the whole
 * pipeline on whatever the reader accepted.
 *
 * Each target defines LLVMFuzzerTestOneInput(), reads the bytes with one
 * reader, and hands an accepted profile to cg_fuzz_exercise().  Built with
 * clang -fsanitize=fuzzer by `make fuzz`, and with the normal compiler and
 * replay.c by `make check`, which replays fuzz/regressions/.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "cg.h"

/* Reads @size bytes with @read into a profile; on success runs cycles,
 * collapse, every applicable method, the display tree and every writer,
 * and an XML round trip.  Never fails: errors are the expected outcome of
 * most fuzz inputs. */
typedef gboolean (*CgFuzzRead) (CgProfile *profile, CgInput *input, const CgReadOptions *options,
                                GError **error);
void cg_fuzz_run (CgFuzzRead read, const uint8_t *data, size_t size);

/* A reader that can cut its input in pieces of @split bytes for a second
 * thread (0: no second thread; G_MAXSIZE: its usual pieces), as
 * cg_read_callgrind_in_pieces() and cg_read_xml_in_blocks() can. */
typedef gboolean (*CgFuzzReadSplit) (CgProfile *profile, CgInput *input, gsize split, GError **error);

/* Reads @size bytes with @read cut three ways (no second thread, its usual
 * pieces, pieces of 1 + @size % 61 bytes) and aborts, printing the three,
 * unless all give the same profile or the same error: a difference is a
 * bug in the hand-over between threads, and abort makes libFuzzer keep
 * the input. */
void cg_fuzz_compare_splits (const char *target, CgFuzzReadSplit read, const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
