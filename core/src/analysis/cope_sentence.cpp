#include "poslab/analysis/cope_sentence.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "poslab/analysis/toy_attention.hpp"
#include "poslab/base/random.hpp"
#include "poslab/base/validate.hpp"

namespace poslab {

namespace {

bool isPunctuation(char c) {
    return c == '.' || c == ',' || c == '!' || c == '?' || c == ';' || c == ':';
}

}  // namespace

std::string_view copeGateSourceName(CopeGateSource source) {
    return enumName(kCopeGateSourceNames, source);
}

Result<CopeGateSource> parseCopeGateSource(std::string_view name) {
    return parseEnum(kCopeGateSourceNames, name, "gates");
}

std::vector<std::string> copeTokens(std::string_view sentence) {
    std::vector<std::string> tokens;
    for (const std::string& word : splitWords(sentence)) {
        // Leading and trailing marks become tokens of their own; marks inside ("3.14") stay.
        std::size_t begin = 0, end = word.size();
        while (begin < end && isPunctuation(word[begin])) {
            tokens.emplace_back(1, word[begin]);
            ++begin;
        }
        std::size_t trailing = end;
        while (trailing > begin && isPunctuation(word[trailing - 1])) --trailing;
        if (trailing > begin) tokens.push_back(word.substr(begin, trailing - begin));
        for (std::size_t k = trailing; k < end; ++k) tokens.emplace_back(1, word[k]);
    }
    return tokens;
}

bool isPunctuationToken(std::string_view token) {
    return token.size() == 1 && isPunctuation(token[0]);
}

bool endsSentence(std::string_view token) {
    return token == "." || token == "!" || token == "?";
}

int effectiveNpos(const CopeSentenceParams& params, int tokens) {
    return params.npos > 0 ? params.npos : tokens + 1;
}

Status validate(const CopeSentenceParams& params) {
    if (params.sentence.size() > std::size_t(kMaxCopeSentenceBytes)) {
        return Error{"sentence must be at most " + std::to_string(kMaxCopeSentenceBytes) +
                     " bytes (got " + std::to_string(params.sentence.size()) + ")"};
    }
    const std::size_t tokens = copeTokens(params.sentence).size();
    if (tokens < 2 || tokens > std::size_t(kMaxCopeTokens)) {
        return Error{"sentence must have 2.." + std::to_string(kMaxCopeTokens) + " tokens (got " +
                     std::to_string(tokens) + ")"};
    }
    if (params.dModel < 2 || params.dModel > kMaxCopeDModel || params.dModel % 2 != 0) {
        return Error{"d_model must be even, 2.." + std::to_string(kMaxCopeDModel) + " (got " +
                     std::to_string(params.dModel) + ")"};
    }
    return requireIntInRange("npos", params.npos, 0, kMaxCopePositions);
}

Result<CopeSentence> copeSentence(const CopeSentenceParams& params) {
    if (auto s = validate(params); !s) return s.error();
    CopeSentence out;
    out.tokens = copeTokens(params.sentence);
    const std::size_t n = out.tokens.size();
    const int d = params.dModel;
    out.npos = effectiveNpos(params, int(n));
    CopeParams cope;
    cope.npos = out.npos;
    cope.causal = true;
    cope.divideGates = params.divideGates;

    // q and k from the toy head: word vectors times its seeded W_q and W_k.
    const Matrix words = wordVectors(out.tokens, d);
    const ToyWeights weights = toyWeights(d, params.seed);
    Matrix queries(n, std::size_t(d)), keys(n, std::size_t(d));
    for (std::size_t i = 0; i < n; ++i) {
        const std::vector<double> q = projectRow(words.row(i), weights.query);
        const std::vector<double> k = projectRow(words.row(i), weights.key);
        std::copy(q.begin(), q.end(), queries.row(i));
        std::copy(k.begin(), k.end(), keys.row(i));
    }
    Matrix contentLogits(n, n);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
            double dot = 0;
            for (int c = 0; c < d; ++c) dot += queries(i, std::size_t(c)) * keys(j, std::size_t(c));
            contentLogits(i, j) = dot;
        }
    }

    if (params.gates == CopeGateSource::Seeded) {
        out.gateLogits = contentLogits;
        out.gates = copeGates(contentLogits, d, cope);
    } else {
        out.gateLogits = Matrix(n, n);
        out.gates = Matrix(n, n);
        for (std::size_t j = 0; j < n; ++j) {
            double g = 1;  // tokens: every key counts
            if (params.gates == CopeGateSource::Words)
                g = isPunctuationToken(out.tokens[j]) ? 0 : 1;
            if (params.gates == CopeGateSource::Sentences) g = endsSentence(out.tokens[j]) ? 1 : 0;
            for (std::size_t i = j; i < n; ++i) out.gates(i, j) = g;
        }
    }
    out.positions = copePositions(out.gates, cope);

    Matrix table(std::size_t(d), std::size_t(out.npos));
    NormalSampler sampler(params.tableSeed);
    for (double& v : table.values) v = sampler.next();
    auto logits = copePositionLogits(queries, table);
    if (!logits) return logits.error();
    out.positionLogits = std::move(*logits);
    auto bias = copeInterpolatedLogits(out.positionLogits, out.positions);
    if (!bias) return bias.error();
    out.bias = std::move(*bias);

    // Scores (q.k + b) / sqrt(d), the causal mask, a softmax per row.
    const double inf = std::numeric_limits<double>::infinity();
    out.weights = Matrix(n, n);
    for (std::size_t i = 0; i < n; ++i) {
        double largest = -inf;
        std::vector<double> row(n, -inf);
        for (std::size_t j = 0; j <= i; ++j) {
            row[j] = (contentLogits(i, j) + out.bias(i, j)) / std::sqrt(double(d));
            largest = std::max(largest, row[j]);
        }
        double total = 0;
        for (std::size_t j = 0; j <= i; ++j) total += (row[j] = std::exp(row[j] - largest));
        for (std::size_t j = 0; j <= i; ++j) out.weights(i, j) = row[j] / total;
        for (std::size_t j = i + 1; j < n; ++j) out.bias(i, j) = -inf;
    }
    return out;
}

}  // namespace poslab
