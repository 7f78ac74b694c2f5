// The RoPE commands' shared inputs (commands/rope_inputs.hpp): a config.json with flags that win,
// the scaling flags a type does not read refused, and q/k from the command line or a seed.
#include "commands/rope_inputs.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace poslab::test {
namespace {

commands::ArgMap ropeArgs(const std::vector<std::string>& arguments) {
    std::vector<commands::OptionSpec> options = commands::ropeOptions("positions");
    for (const commands::OptionSpec& o : commands::vectorOptions()) options.push_back(o);
    options.push_back(commands::pairingOption());
    auto args = commands::parseArguments(arguments, options, "poslab test");
    EXPECT_TRUE(args.ok()) << args.error().message;
    return args.ok() ? args.value() : commands::ArgMap{};
}

std::string errorOf(const std::vector<std::string>& arguments) {
    auto inputs = commands::readRopeInputs(ropeArgs(arguments));
    return inputs ? std::string("(no error)") : inputs.error().message;
}

TEST(RopeInputsTest, FlagsSetTheParametersAndUnreadScalingFlagsAreRefused) {
    auto inputs = commands::readRopeInputs(
        ropeArgs({"--head-dim", "64", "--base", "500000", "--scaling", "yarn", "--factor", "4",
                  "--beta-fast", "16", "--pairing", "interleaved"}));
    ASSERT_TRUE(inputs.ok()) << inputs.error().message;
    EXPECT_EQ(inputs->params.headDim, 64);
    EXPECT_TRUE(inputs->headDimKnown);
    EXPECT_EQ(inputs->params.base, 500000);
    EXPECT_EQ(inputs->params.scaling.type, RopeScaling::Yarn);
    EXPECT_EQ(inputs->params.scaling.factor, 4);
    EXPECT_EQ(inputs->params.scaling.betaFast, 16);
    EXPECT_EQ(inputs->params.pairing, RopePairing::Interleaved);

    EXPECT_EQ(errorOf({"--factor", "4"}),
              "--factor has no effect without --scaling (linear, ntk, dynamic-ntk, yarn, llama3)");
    EXPECT_EQ(errorOf({"--scaling", "llama3", "--factor", "8", "--beta-fast", "16"}),
              "--beta-fast does not apply to --scaling llama3");
    EXPECT_EQ(errorOf({"--layer-type", "full_attention"}),
              "--layer-type needs --config FILE (it picks among the config's layers)");
    EXPECT_EQ(errorOf({"--seq-len", "9"}), "(no error)");
    auto capped = commands::readRopeInputs(ropeArgs({"--seq-len", "9"}), 8);
    ASSERT_FALSE(capped.ok());
    EXPECT_EQ(capped.error().message, "--seq-len must be 1..8 (got 9)");
}

TEST(RopeInputsTest, AConfigGivesTheRopeAndFlagsWin) {
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() /
        ("poslab_rope_inputs_" + std::to_string(::getpid()) + ".json");
    std::ofstream(path) << R"({"model_type": "llama", "hidden_size": 4096,
        "num_attention_heads": 32, "rope_theta": 500000.0, "max_position_embeddings": 8192})";
    auto fromFile = commands::readRopeInputs(ropeArgs({"--config", path.string()}));
    auto flagWins =
        commands::readRopeInputs(ropeArgs({"--config", path.string(), "--base", "10000"}));
    std::filesystem::remove(path);
    ASSERT_TRUE(fromFile.ok()) << fromFile.error().message;
    EXPECT_EQ(fromFile->params.headDim, 4096 / 32);  // hidden_size / heads, as transformers
    EXPECT_TRUE(fromFile->headDimKnown);
    EXPECT_EQ(fromFile->params.base, 500000);
    EXPECT_EQ(fromFile->params.seqLen, 8192);  // the model's context
    ASSERT_TRUE(flagWins.ok()) << flagWins.error().message;
    EXPECT_EQ(flagWins->params.base, 10000);
}

TEST(RopeInputsTest, VectorsComeFromTheCommandLineOrASeed) {
    auto inputs = commands::readRopeInputs(ropeArgs({}));
    ASSERT_TRUE(inputs.ok());
    auto typed = commands::readVectors(ropeArgs({"--q", "1,2,3,4", "--k", "0,1,0,1"}), *inputs);
    ASSERT_TRUE(typed.ok()) << typed.error().message;
    EXPECT_EQ(typed->q, (std::vector<double>{1, 2, 3, 4}));
    EXPECT_EQ(typed->k, (std::vector<double>{0, 1, 0, 1}));
    EXPECT_EQ(inputs->params.headDim, 4);  // no --head-dim: the vectors' length

    auto fixed = commands::readRopeInputs(ropeArgs({"--head-dim", "6"}));
    ASSERT_TRUE(fixed.ok());
    auto wrong = commands::readVectors(ropeArgs({"--q", "1,2,3,4", "--k", "0,1,0,1"}), *fixed);
    ASSERT_FALSE(wrong.ok());
    EXPECT_EQ(wrong.error().message, "--q and --k must have head_dim = 6 entries (got 4)");
    auto alone = commands::readVectors(ropeArgs({"--q", "1,2"}), *fixed);
    ASSERT_FALSE(alone.ok());
    EXPECT_EQ(alone.error().message,
              "--q and --k go together (or give neither, for --seed vectors)");

    // Seeded: q from the seed, k from seed + 1 (the option's documented contract).
    auto seeded = commands::readVectors(ropeArgs({"--seed", "7"}), *fixed);
    ASSERT_TRUE(seeded.ok());
    EXPECT_EQ(seeded->q, seededGaussianVector(6, 7));
    EXPECT_EQ(seeded->k, seededGaussianVector(6, 8));
    EXPECT_EQ(seeded->q.size(), 6u);
}

}  // namespace
}  // namespace poslab::test
