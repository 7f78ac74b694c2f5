// encoding_registry.hpp — encodings added as plug-ins. An encoding registers itself from ONE file,
// app/encodings/<name>_encoding.cpp (compiled in by a glob: no list to edit), which declares:
//
//   its view state      a plain struct with a defaulted ==, held in AppState::plugins
//   its session section its fields listed once (visitFields, state/session_fields.hpp), read and
//                       written under the plug-in's key; lessons set it the same way
//   its commands        `poslab export` kinds and `poslab render` views (commands/commands.hpp);
//                       --help, the man page and the completions list them from the registry
//   its panel           the GUI's view, a tab placed after the tab it names
//
//   POSLAB_REGISTER_ENCODING(alibi) {
//       EncodingPlugin plugin;
//       plugin.key = "alibi";
//       plugin.after = "Vision RoPE";
//       plugin.state = pluginStateType<AlibiViewState>(validateAlibiView);
//       plugin.registerCommands = registerAlibiCommands;
//       plugin.makePanel = [] { return std::unique_ptr<Panel>(new AlibiPanel); };
//       return plugin;
//   }
//
// The panel reads its state with state.plugins.get<AlibiViewState>("alibi"). Parameters are
// described once (poslab/base/parameter.hpp); the slider, the option reader and the session
// read the descriptor. ARCHITECTURE.md ("Adding an encoding") walks through the examples.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <list>
#include <memory>
#include <string>
#include <string_view>
#include <typeindex>
#include <vector>

#include "poslab/base/result.hpp"
#include "state/session_fields.hpp"

namespace poslab::commands {
struct CommandRegistry;
}
namespace poslab::ui {
class Panel;
}

namespace poslab::state {

// ---- A plug-in's view state, held by AppState without AppState naming its type
struct PluginStateType {
    std::type_index type = typeid(void);
    std::function<std::shared_ptr<void>()> make;              // the default state
    std::function<std::shared_ptr<void>(const void*)> clone;  // a deep copy
    std::function<bool(const void*, const void*)> equal;      // the struct's ==
    std::function<json(const void*)> write;                   // its session section
    std::function<void(const json&, void*, const std::string& path, Warnings&)> read;
};
// State needs a defaulted ==, a visitFields(F&, State&) overload (session_fields.hpp) and a
// validator for what its described parameters do not check alone (cross-field rules).
template <class State>
PluginStateType pluginStateType(Status (*validate)(const State&));

// ---- A plug-in
struct EncodingPlugin {
    std::string key;    // the session section, the lessons' state key: "alibi"
    std::string after;  // the title of the tab its panel follows; empty or unknown: the last
    PluginStateType state;
    std::function<void(commands::CommandRegistry&)> registerCommands;  // export kinds, render views
    std::function<std::unique_ptr<ui::Panel>()> makePanel;             // nullptr: no GUI view
};

// ---- Registration (static initialisers in app/encodings/*.cpp; that library is linked whole)
struct EncodingRegistrar {
    explicit EncodingRegistrar(EncodingPlugin (*describe)());
};
#define POSLAB_REGISTER_ENCODING(name)                                         \
    static ::poslab::state::EncodingPlugin describe_##name##_encoding();       \
    static const ::poslab::state::EncodingRegistrar name##_encoding_registrar{ \
        describe_##name##_encoding};                                           \
    static ::poslab::state::EncodingPlugin describe_##name##_encoding()

const std::list<EncodingPlugin>& encodingPlugins();              // every registered plug-in, by key
const EncodingPlugin* findEncodingPlugin(std::string_view key);  // nullptr when none

// ---- The plug-ins' states (AppState::plugins): one per registered plug-in, copied deeply
class PluginStates {
  public:
    PluginStates();  // every registered plug-in's default state
    PluginStates(const PluginStates& other);
    PluginStates& operator=(const PluginStates& other);
    PluginStates(PluginStates&&) noexcept = default;
    PluginStates& operator=(PluginStates&&) noexcept = default;

    template <class State>
    State& get(std::string_view key) {
        return *static_cast<State*>(find(key, typeid(State)));
    }
    template <class State>
    const State& get(std::string_view key) const {
        return *static_cast<const State*>(find(key, typeid(State)));
    }
    friend bool operator==(const PluginStates& a, const PluginStates& b);

    // ---- Sessions: one section per plug-in, under its key
    void write(json& session) const;
    void read(const json& session, Warnings& warnings);  // the sections present

  private:
    struct Entry {
        const EncodingPlugin* plugin;
        std::shared_ptr<void> value;
    };
    // The state of `key`; aborts (a programming error) when none is registered or its type differs.
    void* find(std::string_view key, std::type_index type) const;
    std::vector<Entry> entries_;
};

// ---------------------------------------------------------------------------------------------

template <class State>
PluginStateType pluginStateType(Status (*validate)(const State&)) {
    PluginStateType t;
    t.type = typeid(State);
    t.make = [] { return std::shared_ptr<void>(std::make_shared<State>()); };
    t.clone = [](const void* s) {
        return std::shared_ptr<void>(std::make_shared<State>(*static_cast<const State*>(s)));
    };
    t.equal = [](const void* a, const void* b) {
        return *static_cast<const State*>(a) == *static_cast<const State*>(b);
    };
    t.write = [](const void* s) {
        JsonWriter writer;
        visitFields(writer, *static_cast<const State*>(s));
        return writer.take();
    };
    t.read = [validate](const json& object, void* s, const std::string& path, Warnings& warnings) {
        applyChecked(
            object, *static_cast<State*>(s), path, warnings,
            [](Fields& f, State& v) { visitFields(f, v); },
            [validate](const State& v) { return validate ? validate(v) : success(); });
    };
    return t;
}

}  // namespace poslab::state
