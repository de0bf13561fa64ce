#!/usr/bin/env bash
# lanediff installed like a tool, without touching the real system:
#  1. `cmake --install BUILD --prefix SCRATCH` puts bin/lanediff, the man page and the bash and
#     zsh completions in place;
#  2. `cpack -G DEB` builds the .deb; `dpkg -x` unpacks it into a scratch root; the installed
#     lanediff runs (version, an assembly whose bytes are llvm-mc-22's), its man page renders
#     and holds every command's --help text, and the bash completion completes a flag.
# Usage: install_test.sh BUILD_DIR
set -u
build="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
say_fail() { echo "FAIL: $*"; fail=1; }

# The installed binary must behave like the built one.
check_tree() {  # root of an installed tree (prefix)
  local root="$1" bin="$1/bin/lanediff"
  [[ -x "$bin" ]] || { say_fail "$bin missing"; return; }
  for f in share/man/man1/lanediff.1 share/bash-completion/completions/lanediff \
           share/zsh/vendor-completions/_lanediff; do
    [[ -s "$root/$f" ]] || say_fail "$root/$f missing"
  done
  [[ "$("$bin" --version)" == "$("$build/fuzz/lanediff" --version)" ]] || say_fail "$bin --version"
  # Bytes: llvm-mc-22 -arch=amdgcn -mcpu=gfx942 -show-encoding (model/isa/testdata/golden_vop3.txt).
  local got
  got=$(echo 'v_cvt_pk_u8_f32 v5, v1, v2, s3' | "$bin" asm --bytes-only --targets gfx942)
  [[ "$got" == "[0x05,0x00,0xdd,0xd1,0x01,0x05,0x0e,0x00]" ]] || say_fail "$bin asm: $got"
}

# 1. cmake --install
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; say_fail "cmake --install"; }
check_tree "$tmp/prefix"

# 2. the .deb, unpacked into a scratch root.
(cd "$tmp" && cpack -G DEB -B "$tmp/pkg" --config "$build/CPackConfig.cmake") >"$tmp/cpack.log" 2>&1 ||
  { cat "$tmp/cpack.log"; say_fail "cpack"; }
deb=$(ls "$tmp"/pkg/lanediff_*.deb 2>/dev/null | head -1)
if [[ -z "$deb" ]]; then
  say_fail "no .deb in $tmp/pkg"; cat "$tmp/cpack.log"
else
  echo "built $(basename "$deb")"
  dpkg-deb -f "$deb" Package Version Depends | sed 's/^/  /'
  [[ "$(dpkg-deb -f "$deb" Package)" == lanediff ]] || say_fail "package name"
  dpkg-deb -f "$deb" Depends | grep -q 'libabsl' || say_fail "Depends lacks the abseil libraries"
  dpkg -x "$deb" "$tmp/root" || say_fail "dpkg -x"
  check_tree "$tmp/root/usr"
  root="$tmp/root/usr"
  # The man page renders without warnings and carries every command's own --help text.
  man_src="$root/share/man/man1/lanediff.1"
  [[ -z "$(groff -man -Tutf8 -ww -z "$man_src" 2>&1)" ]] || say_fail "groff warnings on the man page"
  MANWIDTH=200 man -l "$man_src" >"$tmp/man.txt" 2>/dev/null || say_fail "man -l"
  while IFS=$'\t' read -r name _; do
    first=$("$root/bin/lanediff" "$name" --help 2>&1 | head -1)
    grep -qF -- "$first" "$tmp/man.txt" || say_fail "man page lacks '$first' ($name --help)"
  done < <("$root/bin/lanediff" --list-commands)
  # Bash completion: commands, then a command's flags, equal to the --help flag list.
  comp="$root/share/bash-completion/completions/lanediff"
  got=$(bash -c 'source "$1"; COMP_WORDS=(lanediff swe); COMP_CWORD=1; _lanediff; echo "${COMPREPLY[*]}"' _ "$comp")
  [[ "$got" == "sweep" ]] || say_fail "bash completion of 'lanediff swe': '$got'"
  got=$(bash -c 'source "$1"; COMP_WORDS=(lanediff help swe); COMP_CWORD=2; _lanediff; echo "${COMPREPLY[*]}"' _ "$comp")
  [[ "$got" == "sweep" ]] || say_fail "bash completion of 'lanediff help swe': '$got'"
  got=$(bash -c 'source "$1"; COMP_WORDS=(lanediff sweep --ou); COMP_CWORD=2; _lanediff; echo "${COMPREPLY[*]}"' _ "$comp")
  [[ "$got" == "--out" ]] || say_fail "bash completion of 'lanediff sweep --ou': '$got'"
  got=$(bash -c 'source "$1"; COMP_WORDS=(lanediff corpus merge --o); COMP_CWORD=3; _lanediff; echo "${COMPREPLY[*]}"' _ "$comp")
  [[ "$got" == "--out" ]] || say_fail "bash completion of 'lanediff corpus merge --o': '$got'"
  want=$("$root/bin/lanediff" sweep --help | grep -oE '^  --[a-z0-9-]+' | tr -d ' ' | sort | tr '\n' ' ')
  got=$(bash -c 'source "$1"; COMP_WORDS=(lanediff sweep --); COMP_CWORD=2; _lanediff; printf "%s\n" "${COMPREPLY[@]}"' _ "$comp" | sort | tr '\n' ' ')
  [[ "$got" == "$want" ]] || say_fail "bash completion of sweep flags: '$got' vs --help '$want'"
  # zsh: the file parses and names every command.
  if command -v zsh >/dev/null; then
    zsh -n "$root/share/zsh/vendor-completions/_lanediff" || say_fail "zsh -n _lanediff"
  else
    say_fail "zsh missing (scripts/setup.sh installs it)"
  fi
fi
[[ $fail -eq 0 ]] && echo "PASS: cmake --install and the .deb (dpkg -x into a scratch root) give a working lanediff"
exit $fail
