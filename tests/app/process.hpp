// process.hpp — run the poslab binary in tests and capture what it says.
#pragma once

#include <string>
#include <vector>

#include "poslab/colormap.hpp"

namespace poslab::test {

struct ProcessResult {
    int exitCode = -1;
    std::string out, err;
};

// Runs `command` through /bin/sh with `environment` prefixed (e.g. "DISPLAY= "), capturing output.
ProcessResult runShell(const std::string& command);
ProcessResult runPoslab(const std::vector<std::string>& arguments, const std::string& environment = "");
std::string shellQuote(const std::string& text);
std::string temporaryDirectory(const std::string& name);  // fresh, empty
std::string readFile(const std::string& path);
bool fileExists(const std::string& path);
ImageRgba loadPng(const std::string& path);  // empty image when unreadable

}  // namespace poslab::test
