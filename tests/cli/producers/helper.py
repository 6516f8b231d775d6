# helper.py — imported by workload.py (tests/cli/producers.sh): a leaf of
# the same name as the workload's, in another file, which KCachegrind and
# cgtools keep apart.


def leaf(x):
    return x * 5 - 1
