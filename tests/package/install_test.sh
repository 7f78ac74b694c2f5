#!/usr/bin/env bash
# Installs PosLab the way users get it and runs what was installed:
#   1. `cmake --install` into an empty root: every file in its place, the desktop entry and the
#      AppStream metadata valid, the installed poslab answers --version/--help, renders a figure
#      and opens its window under Xvfb (a screenshot is taken);
#   2. `cpack -G DEB`: the package's Depends name the runtime Debian packages, and the poslab
#      unpacked from it runs.
# Usage: install_test.sh BUILD_DIR VERSION
set -euo pipefail
build=$1
version=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# ---- 1. cmake --install into a clean root
root=$work/root
DESTDIR=$root cmake --install "$build" --prefix /usr >"$work/install.log"
for file in \
    usr/bin/poslab \
    usr/share/man/man1/poslab.1 \
    usr/share/bash-completion/completions/poslab \
    usr/share/zsh/vendor-completions/_poslab \
    usr/share/applications/org.poslab.PosLab.desktop \
    usr/share/metainfo/org.poslab.PosLab.metainfo.xml \
    usr/share/mime/packages/poslab.xml \
    usr/share/icons/hicolor/scalable/apps/org.poslab.PosLab.svg \
    usr/share/icons/hicolor/16x16/apps/org.poslab.PosLab.png \
    usr/share/icons/hicolor/256x256/apps/org.poslab.PosLab.png \
    usr/share/icons/hicolor/512x512/apps/org.poslab.PosLab.png \
    usr/share/poslab/lessons.json; do
  [ -s "$root/$file" ] || fail "cmake --install did not install $file"
done
poslab=$root/usr/bin/poslab
[ "$("$poslab" --version)" = "poslab $version" ] || fail "--version says '$("$poslab" --version)', not 'poslab $version'"
"$poslab" --help | grep -q "poslab render VIEW" || fail "--help lacks the render command"
# The man page is the option tables: every render view is in it, and it formats without warnings.
for view in $("$poslab" render --help | sed -n 's/^\([a-z0-9-]*\) — .*/\1/p'); do
  grep -qxF ".SS ${view//-/\\-}" "$root/usr/share/man/man1/poslab.1" || fail "the man page lacks the view $view"
done
if command -v man >/dev/null; then
  warnings=$(MANWIDTH=80 man --warnings -l "$root/usr/share/man/man1/poslab.1" 2>&1 >/dev/null || true)
  [ -z "$warnings" ] || fail "man page warnings: $warnings"
fi
bash -n "$root/usr/share/bash-completion/completions/poslab" || fail "bash completion does not parse"
# The completion offers the render views after `poslab render `.
completions=$(bash -c "source '$root/usr/share/bash-completion/completions/poslab'
  COMP_WORDS=(poslab render si); COMP_CWORD=2; _poslab; echo \${COMPREPLY[*]}")
echo "$completions" | grep -qw sinusoidal || fail "bash completion of 'poslab render si' gave '$completions'"
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$root/usr/share/applications/org.poslab.PosLab.desktop" || fail "desktop entry invalid"
fi
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net --pedantic "$root/usr/share/metainfo/org.poslab.PosLab.metainfo.xml" \
    >"$work/appstream.log" 2>&1 || { cat "$work/appstream.log"; fail "AppStream metadata invalid"; }
fi
"$poslab" render sinusoidal --d-model 64 --seq-len 128 --out "$work/figure.png" >/dev/null
[ -s "$work/figure.png" ] || fail "installed poslab rendered no PNG"
HOME=$work xvfb-run -a -s "-screen 0 1024x768x24" "$poslab" --fresh --screenshot "$work/window.png" \
  >"$work/gui.log" 2>&1 || { cat "$work/gui.log"; fail "installed poslab's window did not open"; }
[ -s "$work/window.png" ] || fail "installed poslab took no screenshot"

# ---- 2. the Debian package
cpack --config "$build/CPackConfig.cmake" -B "$work/deb" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; fail "cpack -G DEB failed"; }
deb=$(ls "$work"/deb/poslab_*.deb)
depends=$(dpkg-deb -f "$deb" Depends)
for package in libglfw3 libcairo2 libc6 libstdc++6 libgl1-mesa-dri libegl-mesa0 fonts-dejavu-core; do
  echo "$depends" | grep -q "\b$package\b" || fail "Depends lacks $package: $depends"
done
dpkg-deb -x "$deb" "$work/unpacked"
[ "$("$work/unpacked/usr/bin/poslab" --version)" = "poslab $version" ] || fail "the packaged poslab does not run"
echo "installed and packaged: $(basename "$deb")"
