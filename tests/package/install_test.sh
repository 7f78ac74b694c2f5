#!/usr/bin/env bash
# Installs PosLab the way users get it and runs what was installed:
#   1. `cmake --install` into an empty root: every file in its place, the desktop entry and the
#      AppStream metadata valid, the installed poslab answers --version/--help, renders a figure
#      and opens its window under Xvfb (a screenshot is taken);
#      the first window is fitted to a HiDPI screen (Xft.dpi 192) and has its own icon, a file it
#      cannot use still opens the window; the icons have transparent corners; the desktop entry
#      claims no JSON file;
#   2. `cpack -G DEB`: the package's Depends name the runtime Debian packages, it holds the
#      copyright file and compressed changelog, its binary has no .comment section, lintian
#      --pedantic finds no error or warning (when lintian is installed), and the poslab unpacked
#      from it runs.
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
    usr/share/man/man1/poslab.1.gz \
    usr/share/bash-completion/completions/poslab \
    usr/share/zsh/vendor-completions/_poslab \
    usr/share/applications/org.poslab.PosLab.desktop \
    usr/share/metainfo/org.poslab.PosLab.metainfo.xml \
    usr/share/mime/packages/poslab.xml \
    usr/share/icons/hicolor/scalable/apps/org.poslab.PosLab.svg \
    usr/share/icons/hicolor/16x16/apps/org.poslab.PosLab.png \
    usr/share/icons/hicolor/256x256/apps/org.poslab.PosLab.png \
    usr/share/icons/hicolor/512x512/apps/org.poslab.PosLab.png \
    usr/share/poslab/lessons.json \
    usr/share/doc/poslab/copyright \
    usr/share/doc/poslab/changelog.Debian.gz; do
  [ -s "$root/$file" ] || fail "cmake --install did not install $file"
done
poslab=$root/usr/bin/poslab
[ "$("$poslab" --version)" = "poslab $version" ] || fail "--version says '$("$poslab" --version)', not 'poslab $version'"
help=$("$poslab" --help)  # whole, then searched: `--help | grep -q` failed under pipefail when grep quit first (SIGPIPE)
grep -q "poslab render VIEW" <<<"$help" || fail "--help lacks the render command"
# The man page is the option tables: every render view is in it, and it formats without warnings.
manual=$root/usr/share/man/man1/poslab.1.gz
zcat "$manual" >"$work/poslab.1"
for view in $("$poslab" render --help | sed -n 's/^\([a-z0-9-]*\) — .*/\1/p'); do
  grep -qxF ".SS ${view//-/\\-}" "$work/poslab.1" || fail "the man page lacks the view $view"
done
# No warnings, and no character lost, in a UTF-8 terminal and in the C locale (ASCII).
if command -v man >/dev/null; then
  for locale in C.UTF-8 C; do
    warnings=$(LC_ALL=$locale MANWIDTH=80 man --warnings -l "$manual" 2>&1 >/dev/null || true)
    [ -z "$warnings" ] || fail "man page warnings ($locale): $warnings"
  done
fi
if command -v groff >/dev/null; then
  warnings=$(LC_ALL=C groff -ww -man -Tutf8 "$work/poslab.1" 2>&1 >/dev/null)
  [ -z "$warnings" ] || fail "groff -ww warnings: $warnings"
fi
bash -n "$root/usr/share/bash-completion/completions/poslab" || fail "bash completion does not parse"
# The completion offers the render views after `poslab render `.
completions=$(bash -c "source '$root/usr/share/bash-completion/completions/poslab'
  COMP_WORDS=(poslab render si); COMP_CWORD=2; _poslab; echo \${COMPREPLY[*]}")
echo "$completions" | grep -qw sinusoidal || fail "bash completion of 'poslab render si' gave '$completions'"
desktop=$root/usr/share/applications/org.poslab.PosLab.desktop
# PosLab declares its own types only: as the handler of application/json it would open every
# package.json from the file manager.
grep -q '^MimeType=.*application/json' "$desktop" && fail "the desktop entry claims application/json"
for type in application/x-npy application/x-safetensors application/x-poslab-session; do
  grep -q "^MimeType=.*$type;" "$desktop" || fail "the desktop entry lacks $type"
  grep -q "type=\"$type\"" "$root/usr/share/mime/packages/poslab.xml" || fail "the MIME XML lacks $type"
done
# The icons' corners are transparent, their middle opaque (straight alpha read from the PNG).
python3 - "$root/usr/share/icons/hicolor" <<'PYTHON' || fail "the icons are not transparent at the corners"
import struct, sys, zlib
def alpha(path):
    data = open(path, 'rb').read()
    i, idat = 8, b''
    while i < len(data):
        n, kind = struct.unpack('>I4s', data[i:i + 8])
        body = data[i + 8:i + 8 + n]
        if kind == b'IHDR':
            width, height, depth, colour = struct.unpack('>IIBB', body[:10])
        elif kind == b'IDAT':
            idat += body
        i += 12 + n
    assert depth == 8 and colour == 6, path + ': not 8-bit RGBA'
    raw, stride, rows, previous, at = zlib.decompress(idat), width * 4, [], bytearray(width * 4), 0
    for _ in range(height):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for x in range(stride):
            a = line[x - 4] if x >= 4 else 0
            b = previous[x]
            c = previous[x - 4] if x >= 4 else 0
            if kind == 1: line[x] = (line[x] + a) & 255
            elif kind == 2: line[x] = (line[x] + b) & 255
            elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                best = a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c
                line[x] = (line[x] + best) & 255
        rows.append(line)
        previous = line
    return [rows[y][4 * x + 3] for x, y in ((0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1), (width // 2, height // 2))]
for size in (16, 48, 256):
    a = alpha(f'{sys.argv[1]}/{size}x{size}/apps/org.poslab.PosLab.png')
    assert a[:4] == [0, 0, 0, 0] and a[4] == 255, f'{size}: corner/middle alpha {a}'
PYTHON
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$root/usr/share/applications/org.poslab.PosLab.desktop" || fail "desktop entry invalid"
fi
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net --pedantic "$root/usr/share/metainfo/org.poslab.PosLab.metainfo.xml" \
    >"$work/appstream.log" 2>&1 || { cat "$work/appstream.log"; fail "AppStream metadata invalid"; }
fi
"$poslab" render sinusoidal --d-model 64 --seq-len 128 --out "$work/figure.png" >/dev/null
[ -s "$work/figure.png" ] || fail "installed poslab rendered no PNG"
HOME=$work xvfb-run -a -s "-noreset -screen 0 1024x768x24" "$poslab" --fresh --screenshot "$work/window.png" \
  >"$work/gui.log" 2>&1 || { cat "$work/gui.log"; fail "installed poslab's window did not open"; }
[ -s "$work/window.png" ] || fail "installed poslab took no screenshot"
# A file it cannot use (an empty JSON from the file manager): the window still opens, with the
# reason; the scripted run then exits 2.
: >"$work/empty.json"
status=0
HOME=$work xvfb-run -a -s "-noreset -screen 0 1024x768x24" "$poslab" "$work/empty.json" --fresh \
  --screenshot "$work/empty.png" >"$work/empty.log" 2>&1 || status=$?
[ "$status" -eq 2 ] && [ -s "$work/empty.png" ] && grep -q "the file is empty" "$work/empty.log" ||
  { cat "$work/empty.log"; fail "an empty JSON did not open the window with its reason (exit $status)"; }
# At Xft.dpi 192 the first window is the default size doubled (within the screen), and it carries
# its own icon (_NET_WM_ICON).
if command -v xrdb >/dev/null && command -v xprop >/dev/null && command -v xwininfo >/dev/null; then
  cat >"$work/hidpi.sh" <<SCRIPT
echo "Xft.dpi: 192" | xrdb -nocpp -merge
HOME=$work "$poslab" --fresh >"$work/hidpi.log" 2>&1 &
pid=\$!
for i in \$(seq 1 100); do xwininfo -name PosLab >/dev/null 2>&1 && break; sleep 0.2; done
sleep 1
xwininfo -name PosLab | sed -n 's/^ *\(Width\|Height\): *//p' | tr '\n' ' '
xprop -name PosLab _NET_WM_ICON | head -c 40
kill \$pid
SCRIPT
  hidpi=$(xvfb-run -a -s "-noreset -screen 0 3200x2000x24 -noreset" bash "$work/hidpi.sh" 2>&1)
  case $hidpi in
    "2880 1800 _NET_WM_ICON(CARDINAL) = "*) ;;
    *) cat "$work/hidpi.log"; fail "HiDPI first window: expected 2880 x 1800 with an icon, got '$hidpi'";;
  esac
fi

# ---- 2. the Debian package
cpack --config "$build/CPackConfig.cmake" -B "$work/deb" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; fail "cpack -G DEB failed"; }
deb=$(ls "$work"/deb/poslab_*.deb)
dpkg-deb -c "$deb" >"$work/contents.txt"
for file in ./usr/share/doc/poslab/copyright ./usr/share/doc/poslab/changelog.Debian.gz \
    ./usr/share/man/man1/poslab.1.gz; do
  grep -q " $file\$" "$work/contents.txt" || fail "the package lacks $file"
done
if command -v lintian >/dev/null; then
  lintian --pedantic -I "$deb" >"$work/lintian.log" 2>&1 || true
  grep -E '^(E|W): ' "$work/lintian.log" && fail "lintian reports errors or warnings (above)"
fi
depends=$(dpkg-deb -f "$deb" Depends)
for package in libglfw3 libcairo2 libc6 libstdc++6 libgl1-mesa-dri libegl-mesa0 fonts-dejavu-core; do
  echo "$depends" | grep -q "\b$package\b" || fail "Depends lacks $package: $depends"
done
dpkg-deb -x "$deb" "$work/unpacked"
[ "$("$work/unpacked/usr/bin/poslab" --version)" = "poslab $version" ] || fail "the packaged poslab does not run"
if command -v readelf >/dev/null; then
  readelf -S "$work/unpacked/usr/bin/poslab" >"$work/sections.txt"
  readelf -d "$work/unpacked/usr/bin/poslab" >"$work/dynamic.txt"
  grep -q '\.comment' "$work/sections.txt" && fail "the packaged poslab keeps its .comment section"
  grep -q 'BIND_NOW' "$work/dynamic.txt" || fail "the packaged poslab is not linked with -z now"
fi
echo "installed and packaged: $(basename "$deb")"
