#!/bin/bash -eu
# ClusterFuzzLite's build step: the project's OSS-Fuzz build, on the
# checkout the Dockerfile copied to $SRC/tlbf, with the variables the
# engine sets ($CC, $CXX, $CFLAGS, $CXXFLAGS, $LIB_FUZZING_ENGINE, $OUT).
"$SRC/tlbf/fuzz/build.sh"
