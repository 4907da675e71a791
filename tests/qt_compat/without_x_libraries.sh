#!/bin/bash
# run "$@" as on a machine without the X11 client libraries Qt's xcb plugin needs (libxcb-*,
# libxkbcommon-x11): a private mount namespace (root) in which they are absent from the library
# folder and from a rebuilt loader cache. Nothing changes outside the namespace.
exec unshare -m --propagation private bash -c '
set -e
L=/usr/lib/x86_64-linux-gnu
V=$(mktemp -d /tmp/xlibs-view.XXXX); O=$(mktemp -d /tmp/xlibs-orig.XXXX)
mount --bind $L $O
for f in $O/*; do b=$(basename "$f"); case "$b" in libxcb-*|libxkbcommon-x11*) continue;; esac; ln -s "$O/$b" "$V/$b"; done
mount --bind $V $L
ldconfig -X -C $V.cache
mount --bind $V.cache /etc/ld.so.cache
"$@"
' bash "$@"
