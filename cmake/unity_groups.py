#!/usr/bin/env python3
"""Writes cmake/UnityGroups.cmake: which sources of each target compile together (unity build).

A unity build compiles several .cpp files as one translation unit, which parses the shared
headers once and instantiates each template once per group instead of once per file: most of
./dev test's time is compiling, three times over (Release, ASan, fuzz). Files that define the
same internal name (a helper `params()` or a constant `kInf` in an anonymous namespace, a macro)
cannot share a group; this script reads those names and groups only files that do not clash, in
list order, at most GROUP_SIZE per group (TEST_GROUP_SIZES for the test executables).

Sources not in any group (a file added after the last run) compile alone as before, so a merge
never breaks the build; re-run the script to group them:
    cmake/unity_groups.py            # rewrite cmake/UnityGroups.cmake
    cmake/unity_groups.py --check    # also compile each group with -fsyntax-only (slow)
"""
import argparse
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GROUP_SIZE = 12
# The test executables' groups are larger: their code is compiled at -O0 in the sanitizer tree
# (POSLAB_TEST_OPTIMIZATION), where a group's cost is mostly what every group repeats (GoogleTest's
# and the core headers' inline functions and templates, instrumented), not what it adds; and
# ./dev test builds them only there.
TEST_GROUP_SIZES = {"poslab_core_tests": 30, "poslab_app_tests": 20}

# (target, CMakeLists.txt that lists its sources, list variable, directory the paths are in)
TARGETS = [
    ("poslab_core", "core/CMakeLists.txt", "POSLAB_CORE_SOURCES", "core"),
    ("poslab_state", "app/CMakeLists.txt", "POSLAB_STATE_SOURCES", "app"),
    ("poslab_commands", "app/CMakeLists.txt", "POSLAB_COMMANDS_SOURCES", "app"),
    ("poslab_gfx", "app/CMakeLists.txt", "POSLAB_GFX_SOURCES", "app"),
    ("poslab_ui", "app/CMakeLists.txt", "POSLAB_UI_SOURCES", "app"),
    ("poslab_panels", "app/CMakeLists.txt", "POSLAB_PANELS_SOURCES", "app"),
    ("poslab_cli", "app/CMakeLists.txt", "POSLAB_CLI_SOURCES", "app"),
    # A glob, not a list (plug-ins: app/CMakeLists.txt): its files in name order.
    ("poslab_encodings", None, "encodings/*.cpp", "app"),
    ("poslab_core_tests", "tests/CMakeLists.txt", "POSLAB_CORE_TESTS", "tests"),
    ("poslab_app_tests", "tests/app/CMakeLists.txt", "POSLAB_APP_TESTS", "tests/app"),
    ("poslab_benchmarks", "tests/bench/CMakeLists.txt", "POSLAB_BENCHMARKS", "tests/bench"),
]
INCLUDE_DIRS = ["core/include", "app", "tests/app", "tests/core"]
KEYWORDS = {"const", "constexpr", "static", "inline", "unsigned", "long", "int", "double",
            "float", "bool", "char", "void", "auto", "return", "operator", "noexcept", "override",
            "template", "typename", "struct", "class", "enum", "std", "size_t", "final"}
TEST_MACROS = re.compile(r"\b(TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_SUITE|"
                         r"INSTANTIATE_TEST_SUITE_P|INSTANTIATE_TYPED_TEST_SUITE_P|"
                         r"GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST|"
                         # Google Benchmark's registrations: unique names (__COUNTER__).
                         r"BENCHMARK)\s*\(")


def list_sources(cmake_file, variable, directory):
    if cmake_file is None:
        return sorted(os.path.relpath(p, os.path.join(ROOT, directory))
                      for p in glob.glob(os.path.join(ROOT, directory, variable)))
    text = open(os.path.join(ROOT, cmake_file)).read()
    match = re.search(r"set\(" + variable + r"\b(.*?)\)", text, re.S)
    if not match:
        sys.exit(f"{cmake_file}: no set({variable} ...)")
    return [w for w in match.group(1).split() if w.endswith(".cpp")]


def strip_comments_and_strings(text):
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c == 'R' and text.startswith('R"', i):
            delim_end = text.find("(", i)
            delim = text[i + 2:delim_end]
            j = text.find(")" + delim + '"', delim_end)
            out.append('""')
            i = n if j < 0 else j + len(delim) + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def declared_name(head):
    """The name a namespace-level declaration or definition introduces, or None."""
    head = " ".join(head.split())
    if not head or TEST_MACROS.search(head) or head.startswith(("extern", "friend")):
        return None
    m = re.match(r"(?:template\s*<.*>\s*)?(?:struct|class|union|enum(?:\s+class)?)\s+(\w+)", head)
    if m:
        return m.group(1)
    m = re.match(r"using\s+(\w+)\s*=", head)
    if m:
        return m.group(1)
    if head.startswith(("using", "namespace", "typedef")):
        return None
    paren = head.find("(")
    equals = head.find("=")
    if equals >= 0 and (paren < 0 or equals < paren):
        head = head[:equals]
    elif paren >= 0:
        head = head[:paren]
        m = re.search(r"(operator\s*\S+)\s*$", head)
        if m:
            return m.group(1).replace(" ", "")
    names = [w for w in re.findall(r"[A-Za-z_]\w*", head) if w not in KEYWORDS]
    return names[-1] if names else None


def internal_names(path, every_linkage=False):
    """Names with internal linkage defined at namespace scope (anonymous namespace or static),
    and macros defined, in one file; with every_linkage, every namespace-scope name (a helper
    header: its names are visible to every later file of a group)."""
    text = open(path, errors="replace").read()
    names = set(re.findall(r"^\s*#\s*define\s+(\w+)", text, re.M))
    names = {"#" + n for n in names}
    text = strip_comments_and_strings(text)
    text = re.sub(r"^\s*#.*?(?<!\\)$", "", text, flags=re.M | re.S)
    stack = []  # per open brace: "anon", "named" (namespaces) or "block"
    head, paren = [], 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        at_namespace_level = all(kind != "block" for kind in stack)
        if c == "(":
            paren += 1
        elif c == ")":
            paren -= 1
        if c == "{" and paren == 0:
            h = "".join(head).strip()
            m = re.search(r"namespace\s*([\w:]*)\s*$", h)
            if at_namespace_level and m:
                stack.append("named" if m.group(1) else "anon")
            else:
                if at_namespace_level:
                    add(names, h, stack, every_linkage)
                stack.append("block")
            head = []
        elif c == "}" and paren == 0:
            if stack:
                stack.pop()
            head = []
        elif c == ";" and paren == 0:
            if at_namespace_level:
                add(names, "".join(head), stack, every_linkage)
            head = []
        else:
            if at_namespace_level:
                head.append(c)
        i += 1
    return names


def add(names, head, stack, every_linkage):
    internal = "anon" in stack or re.match(r"\s*static\b", head)
    if internal or every_linkage:
        name = declared_name(head)
        if name:
            names.add(name)


def local_headers(path):
    """Headers of the project a file includes by a path relative to itself (figure_checks.hpp)."""
    found = []
    for include in re.findall(r'^\s*#\s*include\s+"([^"]+)"', open(path).read(), re.M):
        candidate = os.path.normpath(os.path.join(os.path.dirname(path), include))
        if os.path.exists(candidate) and not candidate.startswith(os.path.join(ROOT, "core")):
            found.append(candidate)
    return found


def names_by_origin(path):
    origins = {name: {path} for name in internal_names(path)}
    for header in local_headers(path):
        for name in internal_names(header, every_linkage=True):
            origins.setdefault(name, set()).add(header)
    return origins


def clash(a, b):
    for name in a.keys() & b.keys():
        if a[name] != b[name] or any(o.endswith(".cpp") for o in a[name]):
            return True
    return False


def groups_for(files, size=GROUP_SIZE):
    groups = []  # [(merged origins, [files])]
    for path in files:
        names = names_by_origin(os.path.join(ROOT, path))
        for merged, members in groups:
            if len(members) < size and not clash(merged, names):
                for name, origin in names.items():
                    merged.setdefault(name, set()).update(origin)
                members.append(path)
                break
        else:
            groups.append(({k: set(v) for k, v in names.items()}, [path]))
    return [members for _, members in groups if len(members) > 1]


def check(target, members):
    unity = "".join(f'#include "{os.path.join(ROOT, m)}"\n' for m in members)
    command = ["g++", "-std=c++20", "-fsyntax-only", "-x", "c++", "-",
               '-DPOSLAB_TEST_DATA_DIR="x"', '-DPOSLAB_SOURCE_DIR="x"', '-DPOSLAB_BINARY="x"',
               '-DPOSLAB_PROJECT_VERSION="0"', '-DPOSLAB_VERSION="0"', '-DPOSLAB_FONT_DIR="x"',
               "-DGLFW_INCLUDE_NONE",
               "-I/usr/include/imgui", "-I/usr/include/cairo", "-I/usr/include/freetype2",
               "-I/usr/include/stb"]
    command += ["-I" + os.path.join(ROOT, d) for d in INCLUDE_DIRS]
    command += ["-I" + os.path.join(ROOT, "build", "app", "glad", "include")]
    result = subprocess.run(command, input=unity, text=True, capture_output=True)
    errors = [line for line in result.stderr.splitlines() if "error:" in line]
    if errors:
        print(f"{target}: a group does not compile as one unit:\n  " + "\n  ".join(errors[:10]))
    return not errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compile each group with g++ -fsyntax-only (needs build/ for glad)")
    parser.add_argument("--only", nargs="*", default=None, help="check these targets only")
    args = parser.parse_args()
    lines = ["# Generated by cmake/unity_groups.py: do not edit; re-run it after adding sources.",
             "# Each group compiles as one translation unit (POSLAB_UNITY, CMakeLists.txt)."]
    ok = True
    for target, cmake_file, variable, directory in TARGETS:
        files = [os.path.join(directory, f) for f in list_sources(cmake_file, variable, directory)]
        groups = groups_for(files, TEST_GROUP_SIZES.get(target, GROUP_SIZE))
        lines.append(f"if(TARGET {target})")
        lines.append(f"  set_target_properties({target} PROPERTIES UNITY_BUILD ON "
                     f"UNITY_BUILD_MODE GROUP)")
        for index, members in enumerate(groups):
            lines.append(f"  set_source_files_properties(")
            lines += [f"    ${{PROJECT_SOURCE_DIR}}/{m}" for m in members]
            lines.append(f"    TARGET_DIRECTORY {target} PROPERTIES UNITY_GROUP {target}_{index}")
            lines.append("  )")
            if args.check and (args.only is None or target in args.only):
                ok = check(target, members) and ok
        lines.append("endif()")
        grouped = sum(len(g) for g in groups)
        print(f"{target}: {len(files)} sources, {grouped} in {len(groups)} groups, "
              f"{len(files) - grouped} alone")
    with open(os.path.join(ROOT, "cmake", "UnityGroups.cmake"), "w") as out:
        out.write("\n".join(lines) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
