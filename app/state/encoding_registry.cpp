#include "state/encoding_registry.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <list>

namespace poslab::state {

namespace {

// Filled by static initialisers before main(); a function-local static, so it exists before the
// first registrar runs whatever the order of the translation units. A list: PluginStates keeps
// pointers to the entries, which later insertions must not move.
std::list<EncodingPlugin>& registry() {
    static std::list<EncodingPlugin> plugins;
    return plugins;
}

}  // namespace

EncodingRegistrar::EncodingRegistrar(EncodingPlugin (*describe)()) {
    EncodingPlugin plugin = describe();
    auto& plugins = registry();
    // By key: the order of static initialisers across files is unspecified, the tabs' and the
    // commands' order must not be.
    auto at = std::find_if(plugins.begin(), plugins.end(),
                           [&](const EncodingPlugin& p) { return plugin.key < p.key; });
    plugins.insert(at, std::move(plugin));
}

const std::list<EncodingPlugin>& encodingPlugins() {
    return registry();
}

const EncodingPlugin* findEncodingPlugin(std::string_view key) {
    for (const EncodingPlugin& plugin : registry()) {
        if (plugin.key == key) return &plugin;
    }
    return nullptr;
}

PluginStates::PluginStates() {
    for (const EncodingPlugin& plugin : registry())
        entries_.push_back({&plugin, plugin.state.make()});
}

PluginStates::PluginStates(const PluginStates& other) {
    for (const Entry& e : other.entries_)
        entries_.push_back({e.plugin, e.plugin->state.clone(e.value.get())});
}

PluginStates& PluginStates::operator=(const PluginStates& other) {
    if (this != &other) {
        PluginStates copy(other);
        entries_ = std::move(copy.entries_);
    }
    return *this;
}

bool operator==(const PluginStates& a, const PluginStates& b) {
    if (a.entries_.size() != b.entries_.size()) return false;
    for (std::size_t i = 0; i < a.entries_.size(); ++i) {
        const auto& x = a.entries_[i];
        const auto& y = b.entries_[i];
        if (x.plugin != y.plugin || !x.plugin->state.equal(x.value.get(), y.value.get()))
            return false;
    }
    return true;
}

void PluginStates::write(json& session) const {
    for (const Entry& e : entries_) session[e.plugin->key] = e.plugin->state.write(e.value.get());
}

void PluginStates::read(const json& session, Warnings& warnings) {
    for (Entry& e : entries_) {
        auto it = session.find(e.plugin->key);
        if (it != session.end()) e.plugin->state.read(*it, e.value.get(), e.plugin->key, warnings);
    }
}

void* PluginStates::find(std::string_view key, std::type_index type) const {
    for (const Entry& e : entries_) {
        if (e.plugin->key != key) continue;
        if (e.plugin->state.type != type) {
            std::fprintf(stderr, "poslab: plug-in state '%.*s' read as another type\n",
                         int(key.size()), key.data());
            std::abort();
        }
        return e.value.get();
    }
    std::fprintf(stderr, "poslab: no plug-in '%.*s' is registered\n", int(key.size()), key.data());
    std::abort();
}

}  // namespace poslab::state
