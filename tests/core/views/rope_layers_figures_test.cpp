#include "poslab/views/rope_layers_figures.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "figure_checks.hpp"

namespace poslab {
namespace {

// A SmolLM3-like config written out: 8 layers, every 4th without RoPE (no_rope_layer_interval),
// plus a Gemma-3-like one: 7 layers, layer_types listing five sliding and then a full layer.
const char* kNoPe = R"({"model_type": "smollm3", "hidden_size": 512, "num_attention_heads": 8,
  "num_hidden_layers": 8, "rope_theta": 5000000.0, "max_position_embeddings": 65536,
  "no_rope_layers": [1, 1, 1, 0, 1, 1, 1, 0]})";
const char* kTwoTypes = R"({"model_type": "gemma3_text", "hidden_size": 640, "head_dim": 256,
  "num_attention_heads": 4, "num_hidden_layers": 7, "rope_theta": 1000000.0,
  "rope_local_base_freq": 10000.0, "sliding_window": 512,
  "rope_scaling": {"rope_type": "linear", "factor": 8.0},
  "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention",
                  "sliding_attention", "sliding_attention", "full_attention",
                  "sliding_attention"]})";

HfModelConfig parsedConfig(const char* text) {
    auto config = parseHfConfig(text);
    EXPECT_TRUE(config.ok()) << (config.ok() ? "" : config.error().message);
    return config.ok() ? *config : HfModelConfig{};
}

TEST(RopeLayersFiguresTest, RowsMergeRunsOfAlikeLayers) {
    const std::vector<RopeLayerRow> rows = ropeLayerRows(parsedConfig(kTwoTypes));
    ASSERT_EQ(rows.size(), 3u);  // 0-4 sliding, 5 full, 6 sliding
    EXPECT_EQ(rows[0].firstLayer, 0);
    EXPECT_EQ(rows[0].lastLayer, 4);
    EXPECT_EQ(rows[0].attention, "sliding 512");
    EXPECT_EQ(rows[0].base, "10000");
    EXPECT_EQ(rows[0].scaling, "no scaling");
    EXPECT_EQ(rows[1].firstLayer, 5);
    EXPECT_EQ(rows[1].lastLayer, 5);
    EXPECT_EQ(rows[1].attention, "full");
    EXPECT_EQ(rows[1].base, "1000000");
    EXPECT_EQ(rows[1].scaling, "linear ×8");
    EXPECT_EQ(rows[2].firstLayer, 6);
}

TEST(RopeLayersFiguresTest, NoPeLayersSayNone) {
    const std::vector<RopeLayerRow> rows = ropeLayerRows(parsedConfig(kNoPe));
    ASSERT_EQ(rows.size(), 4u);  // 0-2 RoPE, 3 NoPE, 4-6 RoPE, 7 NoPE
    EXPECT_EQ(rows[1].firstLayer, 3);
    EXPECT_EQ(rows[1].rope, "none (NoPE)");
    EXPECT_EQ(rows[1].base, "");
    EXPECT_EQ(rows[3].rope, "none (NoPE)");
    Figure figure = emptyFigure(1000, 600, paperTheme());
    drawRopeLayers(figure, {0, 0, 1000, 600}, parsedConfig(kNoPe), paperTheme());
    EXPECT_TRUE(hasText(figure, "2 without RoPE (NoPE)"));
    EXPECT_TRUE(hasText(figure, "none: no_rope_layers"));
    EXPECT_TRUE(count(figure).insideFigure);
}

TEST(RopeLayersFiguresTest, LayerTypesAndTheirVariants) {
    const HfModelConfig config = parsedConfig(kTwoTypes);
    EXPECT_EQ(ropeLayerTypes(config),
              (std::vector<std::string>{"sliding_attention", "full_attention"}));
    auto full = ropeVariantForLayerType(config, "full_attention");
    ASSERT_TRUE(full.ok());
    EXPECT_EQ(config.ropeVariants[std::size_t(*full)].rope.base, 1e6);
    auto sliding = ropeVariantForLayerType(config, "sliding_attention");
    ASSERT_TRUE(sliding.ok());
    EXPECT_EQ(config.ropeVariants[std::size_t(*sliding)].rope.base, 1e4);
    auto unknown = ropeVariantForLayerType(config, "local");
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().message.find("sliding_attention, full_attention"), std::string::npos)
        << unknown.error().message;
}

TEST(RopeLayersFiguresTest, ManyRowsStayInsideASmallFigure) {
    // 40 layers alternating: 40 runs, more than 300 pixels can hold at a readable size.
    std::string types;
    for (int i = 0; i < 40; ++i) {
        types +=
            std::string(i ? "," : "") + (i % 2 ? "\"full_attention\"" : "\"sliding_attention\"");
    }
    const std::string text = R"({"hidden_size": 512, "num_attention_heads": 8,
      "num_hidden_layers": 40, "sliding_window": 128, "layer_types": [)" +
                             types + "]}";
    auto config = parseHfConfig(text);
    ASSERT_TRUE(config.ok()) << config.error().message;
    Figure figure = emptyFigure(600, 300, darkTheme());
    drawRopeLayers(figure, {0, 0, 600, 300}, *config, darkTheme());
    EXPECT_TRUE(count(figure).insideFigure);
    // Too many runs to list: one row per distinct setup, its layers as a compact list.
    EXPECT_FALSE(hasText(figure, "more rows"));
    EXPECT_TRUE(hasText(figure, "0, 2, …,\u00A038"));
    EXPECT_TRUE(hasText(figure, "1, 3, …,\u00A039"));
    for (const FigureItem& item : figure.items) {
        if (const auto* t = std::get_if<TextItem>(&item)) {
            EXPECT_LT(t->anchor.y, 300.0f) << t->text;
            EXPECT_GE(t->size, 9.0f) << t->text;  // fitText shrinks to 3/4 at most
        }
    }
}

TEST(RopeLayersFiguresTest, NinetyFourLayersAtPresentationSizeStayReadable) {
    // 94 layers, every 4th without RoPE: 48 runs. At 1024 x 768 every setup still gets a row,
    // every layer a cell in the strip, and no text is shrunk below 3/4 of the theme's size.
    const std::string text = R"({"model_type": "smollm3", "hidden_size": 512,
      "num_attention_heads": 8, "num_hidden_layers": 94, "no_rope_layer_interval": 4})";
    auto config = parseHfConfig(text);
    ASSERT_TRUE(config.ok()) << config.error().message;
    const Theme theme = darkTheme();
    Figure figure = emptyFigure(1024, 768, theme);
    drawRopeLayers(figure, {0, 0, 1024, 768}, *config, theme);
    EXPECT_TRUE(count(figure).insideFigure);
    EXPECT_FALSE(hasText(figure, "more rows"));
    EXPECT_TRUE(hasText(figure, "3, 7, …,\u00A091 (every 4)"));
    EXPECT_TRUE(hasText(figure, "no_rope_layer_interval 4"));
    int cells = 0;
    for (const FigureItem& item : figure.items) {
        if (const auto* t = std::get_if<TextItem>(&item)) {
            EXPECT_GE(t->size, theme.fontSize * 0.75f) << t->text;
        }
        if (const auto* r = std::get_if<RectItem>(&item)) cells += r->box.width < 12 ? 1 : 0;
    }
    EXPECT_GE(cells, 94);  // one strip cell per layer (about 10 px each)
}

TEST(RopeLayersFiguresTest, Llama4ShowsTheNopeLayersTemperature) {
    // Llama 4: 1 + 0.1 ln 2 at position 8191 (floor(8192 / 8192) = 1), written to 4 digits.
    const std::string text = R"({"model_type": "llama4_text", "hidden_size": 5120,
      "num_attention_heads": 40, "head_dim": 128, "num_hidden_layers": 8,
      "rope_theta": 500000, "attention_chunk_size": 8192, "floor_scale": 8192,
      "attn_scale": 0.1})";
    auto config = parseHfConfig(text);
    ASSERT_TRUE(config.ok()) << config.error().message;
    Figure figure = emptyFigure(1024, 768, darkTheme());
    drawRopeLayers(figure, {0, 0, 1024, 768}, *config, darkTheme());
    EXPECT_TRUE(hasText(figure, "×1.069 at 8K"));
    EXPECT_TRUE(hasText(figure, "chunk 8192"));
    EXPECT_TRUE(count(figure).insideFigure);
}

// Gemma 3 and Llama 4 from their config.json files, at the sizes the GUI gives the Layers tab:
// 1440x900, 1024x768 in presentation mode, 480x320. Nothing over another text, past the figure
// or over data at any; nothing cut with "…" from 1024x768 up. (At 1024x768 F5 Llama 4's
// attn_temperature_tuning line was cut, one line being all a variant note gets below 24 lines
// (two lines each left the table no row): it says less there. At 480x320 Gemma 3's "… 8 more rows
// (a taller figure shows them)" ran past a 237 px figure.)
TEST(RopeLayersFiguresTest, GemmaAndLlamaFitTheGuiSizes) {
    const Theme projector = scaledTheme(darkTheme(), 1.75f);
    for (const char* name : {"gemma-3-4b-it.json", "llama-4-scout-17b-16e-instruct.json"}) {
        auto config = loadHfConfig(std::string(POSLAB_TEST_DATA_DIR) + "/configs/" + name);
        ASSERT_TRUE(config.ok()) << config.error().message;
        for (const auto& [width, height, theme, large] :
             {std::tuple{1086.0f, 732.0f, darkTheme(), true},
              std::tuple{1008.0f, 508.0f, projector, true},
              std::tuple{237.0f, 358.0f, darkTheme(), false}}) {
            Figure figure = emptyFigure(width, height, theme);
            drawRopeLayers(figure, {0, 0, width, height}, *config, theme);
            EXPECT_EQ(layoutFaults(figure), "") << name << " " << width;
            if (!large) continue;
            EXPECT_EQ(textsCutShort(figure), std::vector<std::string>{}) << name << " " << width;
            // Every row shown: the notes above the table are not wrapped into its room.
            EXPECT_FALSE(hasText(figure, "more rows")) << name << " " << width;
        }
    }
}

// Llama 4 at 1024x768 in presentation mode (the 1008 x 508 px the GUI gives the Layers tab): a
// line a note shrank "RoPE chunked_attention: …" and "NoPE-layer query scale: …" to 80 %, under
// the formula line's full size (#28). They wrap onto a second line first, as titles do, every
// note at the theme's size (the formula's shorter form on one line), and the table keeps every
// row.
TEST(RopeLayersFiguresTest, NotesWrapBeforeTheyShrinkOnAProjector) {
    auto config = loadHfConfig(std::string(POSLAB_TEST_DATA_DIR) +
                               "/configs/llama-4-scout-17b-16e-instruct.json");
    ASSERT_TRUE(config.ok()) << config.error().message;
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    Figure figure = emptyFigure(1008, 508, theme);
    drawRopeLayers(figure, {0, 0, 1008, 508}, *config, theme);
    int notes = 0;  // the muted lines above the strip of layers (the first rectangles)
    for (const FigureItem& item : figure.items) {
        if (std::holds_alternative<RectItem>(item)) break;
        const auto* text = std::get_if<TextItem>(&item);
        if (!text || text->color != theme.mutedText) continue;
        ++notes;
        EXPECT_EQ(text->size, theme.fontSize) << text->text;
    }
    EXPECT_GE(notes, 4);  // three notes, one of them at least on two lines
    EXPECT_TRUE(hasText(figure, "attn_temperature_tuning: 1 + 0.1 · log1p")) << allText(figure);
    EXPECT_FALSE(hasText(figure, "more rows"));
    EXPECT_EQ(layoutFaults(figure), "");
    EXPECT_EQ(textsCutShort(figure), std::vector<std::string>{});
}

}  // namespace
}  // namespace poslab
