// offscreen_fixture.hpp — one headless GL renderer (EGL, llvmpipe) per test suite.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "gfx/offscreen.hpp"

namespace poslab::test {

// Derive a suite from OffscreenRendererTest<Suite> (the suite's own type as the argument, so each
// suite has its own renderer, made once before its first test and freed after its last).
// Tests begin with ASSERT_TRUE(renderer_) << failure_; where no EGL display can be had.
template <class Suite>
class OffscreenRendererTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        auto created = gfx::OffscreenRenderer::create();
        if (created)
            renderer_ = std::move(created.value());
        else
            failure_ = created.error().message;
    }
    static void TearDownTestSuite() { renderer_.reset(); }

    static inline std::unique_ptr<gfx::OffscreenRenderer> renderer_;  // null if creation failed
    static inline std::string failure_;                               // why it failed
};

}  // namespace poslab::test
