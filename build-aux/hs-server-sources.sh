#!/bin/sh
# The sources of the host-service server, the one list that libgomp's
# server library (build-hs-server.sh), the simulator, the soak, the fuzzer
# and the benchmark are built from.  libgomp itself compiles the same files
# (patches/libgomp-0002-host-services.patch, Makefile.am's list).  They
# include "libgomp.h": libgomp's own inside libgomp, elsewhere the stand-in
# in libgomp/server-lib.  Usage: hs-server-sources.sh TOP_SRCDIR; prints
# one path a line.
for f in host-service.c host-service-ops.c host-service-fd.c \
	 host-service-server.c host-call.c target-rev.c target-rev-map.c \
	 host-service-process.c host-service-sandbox.c; do
  echo "$1/libgomp/$f"
done
