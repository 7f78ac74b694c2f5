// The Relative view as a plug-in (state/encoding_registry.hpp): xPos, KERPLE power and log,
// Sandwich, FIRE and the family picture. Its state (state/relative_state.hpp), session fields
// (below), commands (relative_commands.cpp) and panel (relative_panel.cpp) are registered here,
// once.
#include <memory>

#include "commands/commands.hpp"
#include "encodings/relative_panel.hpp"
#include "state/encoding_registry.hpp"
#include "state/ranges.hpp"
#include "state/relative_state.hpp"
#include "state/session_fields.hpp"

namespace poslab::encodings {
void registerRelativeCommands(commands::CommandRegistry& registry);  // relative_commands.cpp
}

namespace poslab::state {

// Session fields, read and written from this one list: core's figure options, one key per
// parameter ("xpos.headDim", ...), as the view saved them before it was a plug-in.
template <class F, Is<state::RelativeViewState> V>
void visitFields(F& f, V& v) {
    f.name("tab", v.tab, state::kRelativeTabNames);
    auto& o = v.options;
    f.integer("seqLen", o.seqLen);
    f.integer("trainingLength", o.trainingLength);
    f.boolean("logDistance", o.logDistance);
    f.number("biasFloor", o.biasFloor);
    f.integer("xpos.headDim", o.xpos.headDim);
    f.number("xpos.gamma", o.xpos.gamma);
    f.number("xpos.scaleBase", o.xpos.scaleBase);
    f.number("xpos.base", o.xpos.base);
    f.number("kerplePower.r1", o.kerplePower.r1);
    f.number("kerplePower.r2", o.kerplePower.r2);
    f.number("kerpleLog.r1", o.kerpleLog.r1);
    f.number("kerpleLog.r2", o.kerpleLog.r2);
    f.integer("sandwich.headDim", o.sandwich.headDim);
    f.integer("sandwich.heads", o.sandwich.heads);
    f.integer("sandwich.head", o.sandwich.head);
    f.number("fire.c", o.fire.c);
    f.number("fire.threshold", o.fire.threshold);
    f.integer("fire.mlpWidth", o.fire.mlpWidth);
    f.integer("fire.heads", o.fire.heads);
    f.integer("fire.head", o.fire.head);
    f.integer("fire.seed", o.fire.seed);
    f.integer("alibiHeads", o.alibiHeads);
    f.integer("alibiHead", o.alibiHead);
    f.integer("t5Seed", o.t5Seed);
}

}  // namespace poslab::state

namespace poslab::encodings {

namespace {

// Core's ranges, and the GUI's sequence length (the slider's: kRelativeSeqLen).
Status validateRelativeView(const state::RelativeViewState& v) {
    if (auto s = validate(v.options); !s) return s;
    return state::kRelativeSeqLen.check(v.options.seqLen);
}

}  // namespace

POSLAB_REGISTER_ENCODING(relative) {
    state::EncodingPlugin plugin;
    plugin.key = state::kRelativeKey;
    plugin.after = "T5";
    plugin.state = state::pluginStateType<state::RelativeViewState>(validateRelativeView);
    plugin.registerCommands = registerRelativeCommands;
    plugin.makePanel = [] { return std::unique_ptr<ui::Panel>(std::make_unique<RelativePanel>()); };
    return plugin;
}

}  // namespace poslab::encodings
