// PosLab as a desktop program: --version, the man page and completions generated from the option
// tables, `poslab FILE` opening a file in the view that reads it, and the interface zoom.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "process.hpp"
#include "state/open_file.hpp"

namespace poslab::test {
namespace {

class DesktopTest : public ::testing::Test {
  protected:
    std::string dir =
        temporaryDirectory(::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::string path(const std::string& name) const { return dir + "/" + name; }
    std::string write(const std::string& name, const std::string& text) const {
        std::ofstream(path(name)) << text;
        return path(name);
    }
};

// Every "--name" that a help text lists at the start of an option line.
std::set<std::string> optionsIn(const std::string& help) {
    std::set<std::string> names;
    static const std::regex option(R"(^  --([a-z0-9-]+))");
    std::istringstream lines(help);
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (std::regex_search(line, m, option)) names.insert(m[1]);
    }
    return names;
}

TEST_F(DesktopTest, VersionIsTheProjectVersion) {
    auto result = runPoslab({"--version"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(result.out, "poslab " POSLAB_PROJECT_VERSION "\n");  // CMake's project(VERSION)
}

TEST_F(DesktopTest, ManualHasEveryOptionThatHelpLists) {
    auto manual = runPoslab({"--manual"});
    ASSERT_EQ(manual.exitCode, 0) << manual.err;
    EXPECT_EQ(manual.out.rfind(".TH POSLAB 1", 0), 0u);
    int checked = 0;
    for (const std::vector<std::string>& help :
         {std::vector<std::string>{"--help"}, {"render", "--help"}, {"export", "--help"}}) {
        auto text = runPoslab(help);
        for (const std::string& name : optionsIn(text.out)) {
            std::string escaped;  // roff spells a hyphen \-
            for (char c : name) escaped += c == '-' ? std::string("\\-") : std::string(1, c);
            EXPECT_NE(manual.out.find("\\-\\-" + escaped), std::string::npos) << "--" << name;
            ++checked;
        }
    }
    EXPECT_GT(checked, 40);
}

TEST_F(DesktopTest, CompletionsNameEveryRenderView) {
    auto bash = runPoslab({"--completions", "bash"});
    auto zsh = runPoslab({"--completions", "zsh"});
    ASSERT_EQ(bash.exitCode, 0) << bash.err;
    ASSERT_EQ(zsh.exitCode, 0) << zsh.err;
    EXPECT_NE(zsh.out.find("#compdef poslab"), std::string::npos);
    static const std::regex view(R"(^([a-z0-9-]+) — )");
    std::istringstream lines(runPoslab({"render", "--help"}).out);
    int views = 0;
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (!std::regex_search(line, m, view)) continue;
        ++views;
        EXPECT_NE(bash.out.find(" " + m[1].str() + ") opts="), std::string::npos) << m[1];
        EXPECT_NE(zsh.out.find("'" + m[1].str() + "'"), std::string::npos) << m[1];
    }
    EXPECT_GT(views, 10);
}

TEST_F(DesktopTest, CompletionsRefuseOtherShellsInOneLine) {
    auto result = runPoslab({"--completions", "fish"});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_EQ(result.err, "poslab: --completions must be bash or zsh (got 'fish')\n");
    EXPECT_EQ(runPoslab({"--completions"}).exitCode, 2);
    EXPECT_EQ(runPoslab({"--version", "extra"}).exitCode, 2);
}

// ---- Which view opens a file

TEST_F(DesktopTest, FilesAreOpenedByWhatTheyAre) {
    using state::FileToOpen;
    const std::string session = write("mine.json", R"({"format": "poslab-session", "version": 1})");
    const std::string config =
        write("config.json", R"({"model_type": "llama", "rope_theta": 500000})");
    const std::string table = write("wpe.npy", "\x93NUMPY");
    EXPECT_EQ(*state::classifyFileToOpen(session), FileToOpen::Session);
    EXPECT_EQ(*state::classifyFileToOpen(config), FileToOpen::ModelConfig);
    EXPECT_EQ(*state::classifyFileToOpen(table), FileToOpen::PositionTable);
    EXPECT_STREQ(state::viewFor(FileToOpen::ModelConfig), "RoPE");
    EXPECT_STREQ(state::viewFor(FileToOpen::PositionTable), "Learned");
}

TEST_F(DesktopTest, FilesThatCannotBeOpenedSayWhyInOneLine) {
    auto missing = state::classifyFileToOpen(path("absent.json"));
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("absent.json"), std::string::npos);
    EXPECT_NE(missing.error().message.find("No such file"), std::string::npos);

    auto text = state::classifyFileToOpen(write("notes.txt", "hello"));
    ASSERT_FALSE(text);
    EXPECT_NE(text.error().message.find(".npy, .safetensors"), std::string::npos);

    auto array = state::classifyFileToOpen(write("list.json", "[1, 2, 3]"));
    ASSERT_FALSE(array);
    EXPECT_NE(array.error().message.find("not a JSON object"), std::string::npos);

    auto folder = state::classifyFileToOpen(dir + "/");
    EXPECT_FALSE(folder);
    for (const auto& result : {missing, text, array, folder})
        EXPECT_EQ(result.error().message.find('\n'), std::string::npos);
}

// A FIFO named like a config must not block the window's start-up (nobody writes to it).
TEST_F(DesktopTest, AFifoIsRefusedAtOnce) {
    const std::string fifo = path("config.json");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const auto start = std::chrono::steady_clock::now();
    auto result = state::classifyFileToOpen(fifo);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    ASSERT_FALSE(result);
    EXPECT_NE(result.error().message.find("not a regular file"), std::string::npos);
}

TEST_F(DesktopTest, AMistypedCommandIsStillAnError) {
    auto result = runPoslab({"frobnicate"});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("unknown command 'frobnicate'"), std::string::npos);
}

// ---- In the window (Xvfb)

class DesktopGuiTest : public DesktopTest {
  protected:
    void SetUp() override {
        if (runShell("command -v xvfb-run").exitCode != 0) GTEST_SKIP() << "xvfb-run not installed";
    }
    // Runs the GUI for a screenshot with `arguments`, saves the session, returns it.
    nlohmann::json runAndSaveSession(const std::string& arguments) {
        const std::string session = path("session.json");
        auto result =
            runShell("xvfb-run -a -s '-noreset -screen 0 1024x768x24' " +
                     shellQuote(POSLAB_BINARY) + " " + arguments + " --screenshot " +
                     shellQuote(path("shot.png")) + " --save-session " + shellQuote(session));
        EXPECT_EQ(result.exitCode, 0) << result.err;
        return nlohmann::json::parse(readFile(session), nullptr, false);
    }
};

TEST_F(DesktopGuiTest, AConfigGivenOnTheCommandLineOpensInTheRopeView) {
    const std::string config = write("config.json", R"({"model_type": "llama", "hidden_size": 2048,
        "num_attention_heads": 16, "rope_theta": 500000.0, "max_position_embeddings": 8192})");
    const auto session = runAndSaveSession(shellQuote(config));
    ASSERT_TRUE(session.is_object());
    EXPECT_EQ(session["view"], "RoPE");
    EXPECT_EQ(session["rope"]["configPath"], config);
    EXPECT_DOUBLE_EQ(session["rope"]["params"]["base"].get<double>(), 500000.0);
}

TEST_F(DesktopGuiTest, ZoomIsRememberedInTheSessionAndChecked) {
    const auto session = runAndSaveSession("--zoom 1.5");
    ASSERT_TRUE(session.is_object());
    EXPECT_DOUBLE_EQ(session["uiZoom"].get<double>(), 1.5);
    auto refused = runPoslab({"--zoom", "7"}, "DISPLAY= ");
    EXPECT_EQ(refused.exitCode, 2);
    EXPECT_EQ(refused.err, "poslab: --zoom must be 0.5..3 (got 7)\n");
}

}  // namespace
}  // namespace poslab::test
