#include "poslab/analysis/toy_attention.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <utility>

#include "poslab/base/format.hpp"
#include "poslab/base/random.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/encodings/alibi.hpp"
#include "poslab/encodings/learned.hpp"
#include "poslab/encodings/rope.hpp"
#include "poslab/encodings/sinusoidal.hpp"

namespace poslab {

namespace {

constexpr int kAlibiHeads = 8;  // the toy uses head 0 of 8: slope 1/2

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

Status checkSentence(std::string_view name, const std::string& text) {
    if (text.size() > std::size_t(kMaxToySentenceBytes)) {
        return Error{std::string(name) + " must be at most " +
                     std::to_string(kMaxToySentenceBytes) + " bytes (got " +
                     std::to_string(text.size()) + ")"};
    }
    return success();
}

std::vector<double> rowOf(const Matrix& m, std::size_t r) {
    return std::vector<double>(m.row(r), m.row(r) + m.cols);
}

// x W for a row vector x.
}  // namespace

std::vector<double> projectRow(const double* x, const Matrix& w) {
    std::vector<double> out(w.cols, 0.0);
    for (std::size_t i = 0; i < w.rows; ++i) {
        const double* row = w.row(i);
        for (std::size_t j = 0; j < w.cols; ++j) out[j] += x[i] * row[j];
    }
    return out;
}

std::string_view toyPositionName(ToyPosition position) {
    return enumName(kToyPositionNames, position);
}

Result<ToyPosition> parseToyPosition(std::string_view name) {
    return parseEnum(kToyPositionNames, name, "position");
}

Status validateRanges(const ToyAttentionParams& params) {
    if (auto s = checkSentence("sentence", params.sentence); !s) return s;
    if (auto s = checkSentence("shuffled", params.shuffled); !s) return s;
    if (params.dModel < 2 || params.dModel > kMaxToyDModel || params.dModel % 2 != 0) {
        return Error{"d_model must be even, 2.." + std::to_string(kMaxToyDModel) + " (got " +
                     std::to_string(params.dModel) + ")"};
    }
    return requireInRange("base", params.base, 1.0, 1e12, false);
}

Status validate(const ToyAttentionParams& params) {
    if (auto s = checkSentence("sentence", params.sentence); !s) return s;
    const std::vector<std::string> words = splitWords(params.sentence);
    if (words.size() < 2 || words.size() > std::size_t(kMaxToyWords)) {
        return Error{"sentence must have 2.." + std::to_string(kMaxToyWords) + " words (got " +
                     std::to_string(words.size()) + ")"};
    }
    if (auto s = checkSentence("shuffled", params.shuffled); !s) return s;
    if (!params.shuffled.empty()) {
        if (auto p = matchPermutation(words, splitWords(params.shuffled)); !p) return p.error();
    }
    return validateRanges(params);
}

std::vector<std::string> splitWords(std::string_view sentence) {
    std::vector<std::string> words;
    std::size_t i = 0;
    while (i < sentence.size()) {
        while (i < sentence.size() && isSpace(sentence[i])) ++i;
        const std::size_t start = i;
        while (i < sentence.size() && !isSpace(sentence[i])) ++i;
        if (i > start) words.emplace_back(sentence.substr(start, i - start));
    }
    return words;
}

std::string foldCase(std::string_view word) {
    std::string out(word);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    }
    return out;
}

std::uint64_t wordHash(std::string_view word) {
    std::uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a offset basis and prime
    for (char c : foldCase(word)) {
        hash ^= std::uint64_t(static_cast<unsigned char>(c));
        hash *= 0x100000001b3ull;
    }
    return hash;
}

std::vector<double> wordVector(std::string_view word, int dModel) {
    NormalSampler sampler(wordHash(word));
    std::vector<double> v(std::size_t(std::max(dModel, 0)));
    for (double& x : v) x = sampler.next();
    return v;
}

Matrix wordVectors(const std::vector<std::string>& words, int dModel) {
    Matrix m(words.size(), std::size_t(std::max(dModel, 0)));
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::vector<double> v = wordVector(words[i], dModel);
        std::copy(v.begin(), v.end(), m.row(i));
    }
    return m;
}

ToyWeights toyWeights(int dModel, std::uint64_t seed) {
    const std::size_t d = std::size_t(std::max(dModel, 0));
    const double scale = d > 0 ? 1 / std::sqrt(double(d)) : 0;
    NormalSampler sampler(seed);
    ToyWeights w{Matrix(d, d), Matrix(d, d), Matrix(d, d)};
    for (Matrix* m : {&w.query, &w.key, &w.value}) {
        for (double& x : m->values) x = scale * sampler.next();
    }
    return w;
}

Result<std::vector<int>> matchPermutation(const std::vector<std::string>& words,
                                          const std::vector<std::string>& shuffled) {
    if (shuffled.size() != words.size()) {
        return Error{"shuffled must have the sentence's " + std::to_string(words.size()) +
                     " words (got " + std::to_string(shuffled.size()) + ")"};
    }
    std::vector<bool> used(words.size(), false);
    std::vector<int> permutation;
    for (const std::string& word : shuffled) {
        const std::string folded = foldCase(word);
        int found = -1;
        for (std::size_t j = 0; j < words.size() && found < 0; ++j) {
            if (!used[j] && foldCase(words[j]) == folded) found = int(j);
        }
        if (found < 0) {
            return Error{"shuffled must reorder the sentence's words: " + quoteForMessage(word) +
                         " is not in it (or not that often)"};
        }
        used[std::size_t(found)] = true;
        permutation.push_back(found);
    }
    return permutation;
}

std::vector<int> seededPermutation(int count, std::uint64_t seed) {
    std::vector<int> p(std::size_t(std::max(count, 0)));
    std::iota(p.begin(), p.end(), 0);
    std::mt19937_64 engine(seed);
    for (std::size_t i = p.size(); i > 1; --i) {
        // engine() % i is biased by at most i / 2^64: nothing a 16-word sentence would show.
        std::swap(p[i - 1], p[std::size_t(engine() % i)]);
    }
    if (count >= 2 && std::is_sorted(p.begin(), p.end()))
        std::rotate(p.begin(), p.begin() + 1, p.end());
    return p;
}

Result<ToyAttention> attendToy(const Matrix& words, const ToyWeights& weights,
                               const ToyAttentionParams& params) {
    const std::size_t n = words.rows, d = words.cols;
    if (n == 0 || d == 0 || d != std::size_t(params.dModel) || weights.query.rows != d ||
        weights.query.cols != d || weights.key.rows != d || weights.key.cols != d ||
        weights.value.rows != d || weights.value.cols != d) {
        return Error{"toy attention needs n x d words and d x d weights with d = d_model"};
    }
    if (params.position == ToyPosition::Rope && d % 2 != 0)
        return Error{"d_model must be even for RoPE (got " + std::to_string(d) + ")"};
    if (auto s = requireInRange("base", params.base, 1.0, 1e12, false); !s) return s.error();
    ToyAttention out;
    out.input = words;
    if (params.position == ToyPosition::Sinusoidal) {
        const SinusoidalParams table{int(d), int(n), params.base, SinusoidalLayout::Interleaved};
        std::vector<double> pe(d);
        for (std::size_t i = 0; i < n; ++i) {
            sinusoidalRow(table, double(i), pe.data());
            for (std::size_t c = 0; c < d; ++c) out.input(i, c) += pe[c];
        }
    } else if (params.position == ToyPosition::Learned) {
        auto table = learnedTable({int(n), int(d), params.seed + 1, 1.0});
        if (!table) return table.error();
        for (std::size_t k = 0; k < out.input.values.size(); ++k)
            out.input.values[k] += table->values[k];
    }
    std::vector<std::vector<double>> q(n), k(n), v(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::vector<double> x = rowOf(out.input, i);
        q[i] = projectRow(x.data(), weights.query);
        k[i] = projectRow(x.data(), weights.key);
        v[i] = projectRow(x.data(), weights.value);
    }
    if (params.position == ToyPosition::Rope) {
        RopeParams rope;
        rope.headDim = int(d);
        rope.base = params.base;
        auto freqs = ropeFrequencies(rope);
        if (!freqs) return freqs.error();
        for (std::size_t i = 0; i < n; ++i) {
            q[i] = ropeRotate(q[i], double(i), *freqs, RopePairing::Half);
            k[i] = ropeRotate(k[i], double(i), *freqs, RopePairing::Half);
        }
    }
    const double slope = alibiSlopes(kAlibiHeads)[0];
    const double scale = 1 / std::sqrt(double(d));
    out.scores = Matrix(n, n);
    out.weights = Matrix(n, n);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
            double dot = 0;
            for (std::size_t c = 0; c < d; ++c) dot += q[i][c] * k[j][c];
            double score = dot * scale;
            if (params.position == ToyPosition::Alibi)
                score += alibiBiasValue(slope, int(i), int(j), true);
            out.scores(i, j) = score;
        }
        // Softmax after subtracting the row's largest score: no overflow, same result.
        const double* row = out.scores.row(i);
        const double largest = *std::max_element(row, row + n);
        double sum = 0;
        for (std::size_t j = 0; j < n; ++j) sum += out.weights(i, j) = std::exp(row[j] - largest);
        for (std::size_t j = 0; j < n; ++j) out.weights(i, j) /= sum;
    }
    out.output = Matrix(n, d);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
            const double w = out.weights(i, j);
            for (std::size_t c = 0; c < d; ++c) out.output(i, c) += w * v[j][c];
        }
    }
    return out;
}

Result<ShuffleComparison> compareShuffle(const ToyAttentionParams& params) {
    if (auto s = validate(params); !s) return s.error();
    ShuffleComparison c;
    c.words = splitWords(params.sentence);
    const int n = int(c.words.size());
    if (params.shuffled.empty()) {
        c.permutation = seededPermutation(n, params.shuffleSeed);
        for (int i : c.permutation) c.shuffledWords.push_back(c.words[std::size_t(i)]);
    } else {
        c.shuffledWords = splitWords(params.shuffled);
        auto permutation = matchPermutation(c.words, c.shuffledWords);
        if (!permutation) return permutation.error();
        c.permutation = std::move(permutation).value();
    }
    const ToyWeights weights = toyWeights(params.dModel, params.seed);
    auto original = attendToy(wordVectors(c.words, params.dModel), weights, params);
    if (!original) return original.error();
    auto shuffled = attendToy(wordVectors(c.shuffledWords, params.dModel), weights, params);
    if (!shuffled) return shuffled.error();
    c.original = std::move(original).value();
    c.shuffled = std::move(shuffled).value();
    const std::size_t d = std::size_t(params.dModel);
    c.tokenDeviation.assign(std::size_t(n), 0.0);
    for (std::size_t i = 0; i < std::size_t(n); ++i) {
        const std::size_t from = std::size_t(c.permutation[i]);
        for (std::size_t col = 0; col < d; ++col) {
            c.tokenDeviation[i] =
                std::max(c.tokenDeviation[i],
                         std::abs(c.shuffled.output(i, col) - c.original.output(from, col)));
            c.outputScale = std::max(c.outputScale, std::abs(c.original.output(i, col)));
        }
        c.outputDeviation = std::max(c.outputDeviation, c.tokenDeviation[i]);
        for (std::size_t j = 0; j < std::size_t(n); ++j) {
            const std::size_t to = std::size_t(c.permutation[j]);
            c.attentionDeviation =
                std::max(c.attentionDeviation,
                         std::abs(c.shuffled.weights(i, j) - c.original.weights(from, to)));
        }
    }
    return c;
}

}  // namespace poslab
