// io_test_fixture.hpp — a fresh directory per test for the file-writing tests, removed
// afterwards, and a sample matrix with every kind of value a file must keep exactly.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "poslab/base/matrix.hpp"

namespace poslab {

inline std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

class IoTest : public ::testing::Test {
  protected:
    std::filesystem::path dir =
        std::filesystem::temp_directory_path() /
        ("poslab-io-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         ::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name() + "-" +
         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    void SetUp() override { std::filesystem::create_directories(dir); }
    void TearDown() override { std::filesystem::remove_all(dir); }
    Matrix sample() const {
        Matrix m(2, 4);
        m.values = {0.1, -2.5e-300, 1.0 / 3.0, -INFINITY, INFINITY, NAN, 123456789.125, -0.0};
        return m;
    }
};

}  // namespace poslab
