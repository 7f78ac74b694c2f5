// The dependency rule of core/, checked on the sources themselves (see ARCHITECTURE.md):
//   base       depends on nothing else in core
//   encodings  -> base
//   io         -> base, encodings
//   analysis   -> base, encodings
//   figure     -> base
//   views      -> everything above
// Nothing below `figure` or `views` may include them, and no core file includes GL, ImGui or any
// app/ folder (ui/, cli/, gfx/, panels/, state/, commands/, encodings/: core's own are
// poslab/encodings/).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const std::map<std::string, std::set<std::string>> kAllowed = {
    {"base", {"base"}},
    {"encodings", {"base", "encodings"}},
    {"io", {"base", "encodings", "io"}},
    {"analysis", {"base", "encodings", "analysis"}},
    {"figure", {"base", "figure"}},
    {"views", {"base", "encodings", "io", "analysis", "figure", "views"}},
};

struct Include {
    std::string layer;  // "base" for "poslab/base/matrix.hpp"; empty for other quoted includes
    std::string path;
    int line = 0;
};

std::vector<Include> quotedIncludes(const fs::path& file) {
    static const std::regex include(R"re(^\s*#\s*include\s*"([^"]+)")re");
    static const std::regex layered(R"re(^poslab/([a-z_]+)/[a-z_0-9]+\.hpp$)re");
    std::vector<Include> result;
    std::ifstream in(file);
    std::string text;
    for (int line = 1; std::getline(in, text); ++line) {
        // Only a line with "include" can match; std::regex on every line of every source cost
        // seconds of CPU in the sanitizer run (the tests' code is -O0 there).
        if (text.find("include") == std::string::npos) continue;
        std::smatch m;
        if (!std::regex_search(text, m, include)) continue;
        Include found{"", m[1].str(), line};
        std::smatch l;
        if (std::regex_match(found.path, l, layered)) found.layer = l[1].str();
        result.push_back(found);
    }
    return result;
}

// Every source and header of core, with the layer its folder names ("" when in none).
std::vector<std::pair<fs::path, std::string>> coreFiles() {
    std::vector<std::pair<fs::path, std::string>> files;
    const fs::path core = fs::path(POSLAB_SOURCE_DIR) / "core";
    for (const fs::path& root : {core / "include" / "poslab", core / "src"}) {
        for (const auto& entry : fs::recursive_directory_iterator(root)) {
            if (!entry.is_regular_file()) continue;
            const auto extension = entry.path().extension();
            if (extension != ".hpp" && extension != ".cpp") continue;
            const fs::path relative = fs::relative(entry.path(), root);
            const std::string layer = std::distance(relative.begin(), relative.end()) == 2
                                          ? relative.begin()->string()
                                          : "";
            files.emplace_back(entry.path(), layer);
        }
    }
    return files;
}

TEST(LayersTest, EveryCoreFileSitsInALayerFolder) {
    const auto files = coreFiles();
    ASSERT_GT(files.size(), 40u) << "core sources not found under " << POSLAB_SOURCE_DIR;
    for (const auto& [file, layer] : files)
        EXPECT_TRUE(kAllowed.count(layer)) << file << " is not in one of the layer folders";
}

TEST(LayersTest, IncludesFollowTheDependencyRule) {
    int checked = 0;
    for (const auto& [file, layer] : coreFiles()) {
        if (!kAllowed.count(layer)) continue;
        for (const Include& include : quotedIncludes(file)) {
            ++checked;
            // A layer's private header (src/figure/plot_parts.hpp: what its sources share and
            // no other layer may see) sits beside the sources that include it.
            if (include.path.find('/') == std::string::npos &&
                file.parent_path().filename() == layer &&
                file.parent_path().parent_path().filename() == "src" &&
                fs::exists(file.parent_path() / include.path))
                continue;
            if (include.layer.empty()) {
                ADD_FAILURE() << file << ":" << include.line << " includes \"" << include.path
                              << "\", which is not a core header (poslab/<layer>/<name>.hpp)";
                continue;
            }
            EXPECT_TRUE(kAllowed.at(layer).count(include.layer))
                << file << ":" << include.line << ": " << layer << " may not depend on "
                << include.layer << " (\"" << include.path << "\")";
        }
    }
    EXPECT_GT(checked, 100);
}

TEST(LayersTest, CoreIncludesNoGraphicsOrApplicationHeaders) {
    static const std::regex forbidden(
        R"re(^\s*#\s*include\s*[<"](GL/|GLFW/|EGL/|glad/|imgui|cairo|ui/|cli/|gfx/|panels/|state/|commands/|encodings/))re");
    for (const auto& [file, layer] : coreFiles()) {
        std::ifstream in(file);
        std::string text;
        for (int line = 1; std::getline(in, text); ++line) {
            if (text.find("include") == std::string::npos) continue;  // cannot match
            EXPECT_FALSE(std::regex_search(text, forbidden)) << file << ":" << line << ": " << text;
        }
    }
}

// Each header has its test file at the mirrored path: poslab/<layer>/<name>.hpp <->
// tests/core/<layer>/<name>_test.cpp.
TEST(LayersTest, TestsMirrorTheHeaders) {
    const fs::path headers = fs::path(POSLAB_SOURCE_DIR) / "core" / "include" / "poslab";
    const fs::path tests = fs::path(POSLAB_SOURCE_DIR) / "tests" / "core";
    std::vector<std::string> missing;
    for (const auto& entry : fs::recursive_directory_iterator(headers)) {
        if (!entry.is_regular_file() || entry.path().extension() != ".hpp") continue;
        const fs::path relative = fs::relative(entry.path(), headers);
        const fs::path test =
            tests / relative.parent_path() / (relative.stem().string() + "_test.cpp");
        if (!fs::exists(test)) missing.push_back(relative.string());
    }
    EXPECT_TRUE(missing.empty()) << missing.size() << " headers have no test file, e.g. "
                                 << (missing.empty() ? "" : missing.front());
}

// The build lists its files (no globs): a core source or test that is not listed would silently
// not be built, so each one must appear in its CMakeLists.txt.
TEST(LayersTest, EveryCoreSourceAndTestIsListedInTheBuild) {
    auto text = [](const fs::path& path) {
        std::ifstream in(path);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const fs::path root(POSLAB_SOURCE_DIR);
    const std::string coreList = text(root / "core" / "CMakeLists.txt");
    const std::string testList = text(root / "tests" / "CMakeLists.txt");
    int checked = 0;
    for (const auto& entry : fs::recursive_directory_iterator(root / "core" / "src")) {
        if (entry.path().extension() != ".cpp") continue;
        const std::string relative = fs::relative(entry.path(), root / "core").string();
        EXPECT_NE(coreList.find("  " + relative + "\n"), std::string::npos)
            << relative << " is not listed in core/CMakeLists.txt";
        ++checked;
    }
    for (const auto& entry : fs::recursive_directory_iterator(root / "tests" / "core")) {
        const std::string name = entry.path().filename().string();
        if (name.size() < 9 || name.substr(name.size() - 9) != "_test.cpp") continue;
        const std::string relative = fs::relative(entry.path(), root / "tests").string();
        EXPECT_NE(testList.find("  " + relative + "\n"), std::string::npos)
            << relative << " is not listed in tests/CMakeLists.txt";
        ++checked;
    }
    EXPECT_GT(checked, 80);
}

// Each app/ folder is one library and one namespace (ARCHITECTURE.md): app/state is
// poslab::state, app/panels poslab::panels, and so on. A file may open another folder's
// namespace only to forward-declare a name, and an encoding's registration may open
// poslab::state for its session fields (argument-dependent lookup finds them beside the struct).
TEST(LayersTest, AppNamespacesMatchTheirFolders) {
    static const std::regex opening(R"re(^namespace poslab::([a-z_]+) \{)re");
    static const std::regex declarationOnly(R"re(^\s*((struct|class) \w+;\s*(//.*)?)?$)re");
    const fs::path app = fs::path(POSLAB_SOURCE_DIR) / "app";
    int checked = 0;
    for (const auto& entry : fs::recursive_directory_iterator(app)) {
        const auto extension = entry.path().extension();
        if (extension != ".hpp" && extension != ".cpp") continue;
        const fs::path relative = fs::relative(entry.path(), app);
        if (std::distance(relative.begin(), relative.end()) != 2)
            continue;  // main.cpp, web_main.cpp
        const std::string folder = relative.begin()->string();
        std::ifstream in(entry.path());
        std::vector<std::string> lines;
        for (std::string line; std::getline(in, line);) lines.push_back(line);
        for (size_t i = 0; i < lines.size(); ++i) {
            std::smatch m;
            if (lines[i].rfind("namespace poslab::", 0) != 0) continue;  // cannot match
            if (!std::regex_search(lines[i], m, opening)) continue;
            const std::string name = m[1].str();
            ++checked;
            if (name == folder || (folder == "encodings" && name == "state")) continue;
            bool onlyDeclarations = true;
            for (size_t j = i + 1; j < lines.size() && lines[j].rfind("}", 0) != 0; ++j)
                onlyDeclarations = onlyDeclarations && std::regex_match(lines[j], declarationOnly);
            EXPECT_TRUE(onlyDeclarations)
                << relative.string() << ":" << i + 1 << " opens poslab::" << name << " in app/"
                << folder << "/";
        }
    }
    EXPECT_GT(checked, 100);
}

}  // namespace
