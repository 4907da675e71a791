#!/bin/sh
# Install the one-folder build for the current user (or PREFIX=/usr/local as root):
#   <PREFIX>/lib/catalogue-desktop/        the bundle (this directory)
#   <PREFIX>/bin/catalogue-desktop         a symlink to its executable
#   <PREFIX>/share/applications/catalogue-desktop.desktop
#   <PREFIX>/share/icons/hicolor/<N>x<N>/apps/catalogue-desktop.png
# Run from the bundle: dist/catalogue-desktop/install.sh   (uninstall: add --uninstall)
set -eu
PREFIX="${PREFIX:-$HOME/.local}"
HERE="$(cd "$(dirname "$0")" && pwd)"
APP=catalogue-desktop
SIZES="16 24 32 48 64 128 256"

if [ "${1:-}" = "--uninstall" ]; then
    rm -rf "$PREFIX/lib/$APP" "$PREFIX/bin/$APP" "$PREFIX/share/applications/$APP.desktop"
    for n in $SIZES; do rm -f "$PREFIX/share/icons/hicolor/${n}x${n}/apps/$APP.png"; done
    echo "Removed $APP from $PREFIX"
    exit 0
fi

mkdir -p "$PREFIX/lib" "$PREFIX/bin" "$PREFIX/share/applications"
if [ "$HERE" != "$PREFIX/lib/$APP" ]; then
    rm -rf "$PREFIX/lib/$APP"
    cp -a "$HERE" "$PREFIX/lib/$APP"
fi
ln -sf "$PREFIX/lib/$APP/$APP" "$PREFIX/bin/$APP"
ICONS="$PREFIX/lib/$APP/_internal/resources/icons"
for n in $SIZES; do
    mkdir -p "$PREFIX/share/icons/hicolor/${n}x${n}/apps"
    cp "$ICONS/$APP-$n.png" "$PREFIX/share/icons/hicolor/${n}x${n}/apps/$APP.png"
done
sed "s|^Exec=.*|Exec=$PREFIX/lib/$APP/$APP|; s|^TryExec=.*|TryExec=$PREFIX/lib/$APP/$APP|" \
    "$HERE/$APP.desktop" > "$PREFIX/share/applications/$APP.desktop"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$PREFIX/share/applications" || true
command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t "$PREFIX/share/icons/hicolor" || true
echo "Installed $APP into $PREFIX (run: $PREFIX/bin/$APP)"
