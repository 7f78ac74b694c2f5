#include "poslab/encodings/fire.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <tuple>
#include <vector>

namespace poslab {
namespace {

TEST(FireTest, PhiMatchesPublicImplementation) {
    // FIRE.forward (cramming embeddings.py): log(|c (i - j)| + 1) / (log(|c max(i, L)| + 1)
    // + 1e-6), printed by Python from those lines. Tolerance 1e-14.
    FireParams p;
    EXPECT_NEAR(firePhi(p, 10, 3), 0.13416360280331255, 1e-14);
    EXPECT_NEAR(firePhi(p, 2000, 0), 0.9999998114383711, 1e-14);
    EXPECT_NEAR(firePhi(p, 2000, 1000), 0.8702346417218687, 1e-14);
    p.c = 0.5;
    p.threshold = 64;
    EXPECT_NEAR(firePhi(p, 100, 99), 0.10312385208785806, 1e-14);
}

TEST(FireTest, PhiStaysInUnitIntervalForAnyLength) {
    // Progressive interpolation: the farthest key of any query maps to just below 1.
    FireParams p;
    for (long long i : {512LL, 4096LL, 65535LL, 1000000LL}) {
        const double far = firePhi(p, i, 0);
        EXPECT_LT(far, 1.0);
        EXPECT_GT(far, 0.999);
        EXPECT_EQ(firePhi(p, i, i), 0.0);
    }
    // Below L the normaliser is psi(L): short queries do not stretch to 1.
    EXPECT_NEAR(firePhi(p, 100, 0), std::log(11.0) / (std::log(52.2) + 1e-6), 1e-14);
}

TEST(FireTest, SeededMlpFollowsTorchInitBoundsAndFormula) {
    const FireMlp mlp = seededFireMlp(32, 8, 7);
    ASSERT_EQ(mlp.w2.size(), 256u);
    for (double w : mlp.w1) EXPECT_LE(std::abs(w), 1.0);
    for (double w : mlp.w2) EXPECT_LE(std::abs(w), 1.0 / std::sqrt(32.0));
    // The output written out: b2[h] + sum_k w2[h][k] max(0, w1[k] phi + b1[k]).
    const double phi = 0.37;
    double expected = mlp.b2[3];
    for (int k = 0; k < 32; ++k) {
        expected += mlp.w2[3 * 32 + std::size_t(k)] *
                    std::max(0.0, mlp.w1[std::size_t(k)] * phi + mlp.b1[std::size_t(k)]);
    }
    EXPECT_NEAR(fireMlpOutput(mlp, 3, phi), expected, 1e-14);
    // Same seed, same weights; another seed, others.
    EXPECT_EQ(seededFireMlp(32, 8, 7).w1, mlp.w1);
    EXPECT_NE(seededFireMlp(32, 8, 8).w1, mlp.w1);
}

TEST(FireTest, MlpLinesEqualTheMlpWrittenOut) {
    // b2 + sum_k w2_k relu(w1_k phi + b1_k), summed unit by unit, against the lines between
    // kinks, at phi in and beyond [0, 1] and exactly at the kinks (where a unit turns on).
    for (auto [width, heads, seed] :
         {std::tuple{1, 1, 0}, std::tuple{32, 8, 3}, std::tuple{1024, 128, 11}}) {
        const FireMlp mlp = seededFireMlp(width, heads, std::uint64_t(seed));
        for (int head : {0, heads - 1}) {
            const FireMlpLines lines = fireMlpLines(mlp, head);
            auto written = [&, width = width](double phi) {  // clang 14: no binding captures
                double out = mlp.b2[std::size_t(head)];
                for (int k = 0; k < width; ++k) {
                    const double hidden = mlp.w1[std::size_t(k)] * phi + mlp.b1[std::size_t(k)];
                    out += mlp.w2[std::size_t(head * width + k)] * std::max(0.0, hidden);
                }
                return out;
            };
            std::vector<double> at = {-3.0, -1.0, 0.0, 1.0, 2.5, 40.0};
            for (int s = 0; s <= 200; ++s) at.push_back(s / 200.0);
            for (std::size_t k = 0; k < lines.kinks.size(); k += 7) at.push_back(lines.kinks[k]);
            for (double phi : at)
                EXPECT_NEAR(lines(phi), written(phi), 1e-12 * std::max(1.0, std::abs(phi)))
                    << width << " " << head << " " << phi;
        }
    }
}

TEST(FireTest, MatricesAreCausal) {
    FireParams p;
    auto phi = firePhiMatrix(p, 6);
    auto bias = fireBiasMatrix(p, 6);
    ASSERT_TRUE(phi.ok());
    ASSERT_TRUE(bias.ok());
    EXPECT_TRUE(std::isinf((*phi)(1, 2)));
    EXPECT_TRUE(std::isinf((*bias)(1, 2)));
    EXPECT_DOUBLE_EQ((*phi)(5, 1), firePhi(p, 5, 1));
}

TEST(FireTest, ValidateNamesParameterAndRange) {
    FireParams p;
    p.c = 0;
    EXPECT_EQ(validate(p).error().message.rfind("c must be", 0), 0u);
    p = {};
    p.threshold = 0;
    EXPECT_EQ(validate(p).error().message.rfind("threshold must be", 0), 0u);
    p = {};
    p.head = 8;
    EXPECT_EQ(validate(p).error().message.rfind("head must be", 0), 0u);
}

}  // namespace
}  // namespace poslab
