#!/bin/bash
# Run "$@" as on a machine without the X11 client libraries Qt's xcb plugin needs (libxcb-*,
# libxkbcommon-x11): in a private mount namespace (root) where they are absent from the library
# folder and from a rebuilt loader cache. Nothing changes outside the namespace. Example:
#   tests/qt_compat/without_x_libraries.sh .venv/bin/python -m pytest tests/qt_compat
set -e
V=$(mktemp -d /tmp/xlibs-view.XXXX)
O=$(mktemp -d /tmp/xlibs-orig.XXXX)
trap 'rm -rf "$V" "$V.cache"; rmdir "$O"' EXIT
unshare -m --propagation private bash -c '
set -e
V=$1; O=$2; shift 2
L=/usr/lib/x86_64-linux-gnu
mount --bind $L $O
for f in $O/*; do
  b=$(basename "$f")
  case "$b" in libxcb-*|libxkbcommon-x11*) continue;; esac
  ln -s "$O/$b" "$V/$b"
done
mount --bind $V $L
ldconfig -X -C $V.cache
mount --bind $V.cache /etc/ld.so.cache
"$@"
' bash "$V" "$O" "$@"
