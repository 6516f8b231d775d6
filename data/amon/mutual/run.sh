#!/bin/sh
# How amon.out.mutual was made: the test workload's mutual recursion
# (even and odd call each other and both call leaf), built with
# -finstrument-functions, linked with libamon, CPU clock (the default).
set -e
dir=/tmp/cgtools-amon
mkdir -p "$dir"
cp "$(dirname "$0")/../../../tests/amon/workload.c" "$dir/"
cd "$dir"
cc -O1 -g -finstrument-functions -pthread workload.c -lamon -o workload
AMON_OUT=amon.out.mutual ./workload mutual
