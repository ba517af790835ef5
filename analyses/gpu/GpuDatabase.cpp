// The GPU database: parsing and validating data/gpus.json, and resolving
// --gpu values against it. See docs/gpu-database.md for the file format.
#include "gpu/GpuDatabase.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "GpuDatabaseData.inc"

namespace occlint {

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string &Where, const std::string &What) {
  throw std::runtime_error("GPU database: " + Where + ": " + What);
}

const json &require(const json &Obj, const char *Field, const std::string &Where) {
  auto It = Obj.find(Field);
  if (It == Obj.end())
    fail(Where, std::string("missing field '") + Field + "'");
  return *It;
}

int64_t getInt(const json &Obj, const char *Field, const std::string &Where, int64_t Min,
               int64_t Max = std::numeric_limits<int>::max()) {
  const json &V = require(Obj, Field, Where);
  if (!V.is_number_integer())
    fail(Where, std::string("field '") + Field + "' must be an integer, got " + V.dump());
  int64_t X = V.get<int64_t>();
  if (X < Min || X > Max)
    fail(Where, std::string("field '") + Field + "' out of range: " + std::to_string(X) + " (expected " +
                    std::to_string(Min) + ".." + std::to_string(Max) + ")");
  return X;
}

std::string getString(const json &Obj, const char *Field, const std::string &Where, bool AllowEmpty = false) {
  const json &V = require(Obj, Field, Where);
  if (!V.is_string())
    fail(Where, std::string("field '") + Field + "' must be a string, got " + V.dump());
  std::string S = V.get<std::string>();
  if (S.empty() && !AllowEmpty)
    fail(Where, std::string("field '") + Field + "' must not be empty");
  return S;
}

bool getBool(const json &Obj, const char *Field, const std::string &Where) {
  const json &V = require(Obj, Field, Where);
  if (!V.is_boolean())
    fail(Where, std::string("field '") + Field + "' must be true or false, got " + V.dump());
  return V.get<bool>();
}

std::string toLower(std::string_view S) {
  std::string R(S);
  for (char &C : R)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return R;
}

std::string_view trim(std::string_view S) {
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.front())))
    S.remove_prefix(1);
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.back())))
    S.remove_suffix(1);
  return S;
}

/// Product-name key: lower case, without spaces, '-' and '_', and without a
/// leading "nvidia".
std::string normalizeName(std::string_view S) {
  std::string R;
  for (char C : S) {
    if (C == ' ' || C == '-' || C == '_' || C == '\t')
      continue;
    R += static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  }
  if (R.size() > 6 && R.compare(0, 6, "nvidia") == 0)
    R.erase(0, 6);
  return R;
}

bool allDigits(std::string_view S) {
  return !S.empty() &&
         std::all_of(S.begin(), S.end(), [](char C) { return std::isdigit(static_cast<unsigned char>(C)); });
}

std::optional<int> parseSmallInt(std::string_view S) {
  if (!allDigits(S) || S.size() > 9)
    return std::nullopt;
  int V = 0;
  std::from_chars(S.data(), S.data() + S.size(), V);
  return V;
}

/// "sm_90", "sm90", "compute_90", "90", "9.0", "sm_90a" -> {9, 0}.
std::optional<std::pair<int, int>> parseArchSpec(std::string_view Spec) {
  std::string S = toLower(trim(Spec));
  std::string_view V = S;
  for (std::string_view Prefix : {"compute_", "compute", "sm_", "sm"}) {
    if (V.substr(0, Prefix.size()) == Prefix) {
      V.remove_prefix(Prefix.size());
      break;
    }
  }
  // Arch-specific ("sm_90a") and family-specific ("sm_100f") variants have the
  // limits of their base arch.
  if (!V.empty() && (V.back() == 'a' || V.back() == 'f'))
    V.remove_suffix(1);
  if (auto Dot = V.find('.'); Dot != std::string_view::npos) {
    auto Major = parseSmallInt(V.substr(0, Dot));
    auto Minor = parseSmallInt(V.substr(Dot + 1));
    if (!Major || !Minor || *Minor > 9)
      return std::nullopt;
    return std::make_pair(*Major, *Minor);
  }
  if (V.size() < 2 || V.size() > 3)
    return std::nullopt;
  auto N = parseSmallInt(V);
  if (!N)
    return std::nullopt;
  return std::make_pair(*N / 10, *N % 10);
}

bool looksLikeArchSpec(std::string_view Spec) {
  std::string S = toLower(trim(Spec));
  if (S.rfind("sm", 0) == 0 || S.rfind("compute", 0) == 0)
    return true;
  // "99" or "9.9"; a longer number ("4090") is more likely part of a product name.
  if (S.find('.') != std::string::npos)
    return std::all_of(S.begin(), S.end(),
                       [](char C) { return std::isdigit(static_cast<unsigned char>(C)) || C == '.'; });
  return S.size() <= 3 && allDigits(S);
}

size_t editDistance(std::string_view A, std::string_view B) {
  std::vector<size_t> Prev(B.size() + 1), Cur(B.size() + 1);
  for (size_t J = 0; J <= B.size(); ++J)
    Prev[J] = J;
  for (size_t I = 1; I <= A.size(); ++I) {
    Cur[0] = I;
    for (size_t J = 1; J <= B.size(); ++J)
      Cur[J] = std::min({Prev[J] + 1, Cur[J - 1] + 1, Prev[J - 1] + (A[I - 1] != B[J - 1])});
    std::swap(Prev, Cur);
  }
  return Prev[B.size()];
}

// Every numeric/boolean ArchLimits field that must carry a source.
const char *const kSourcedFields[] = {
    "warpSize",
    "maxThreadsPerBlock",
    "maxThreadsPerSM",
    "maxWarpsPerSM",
    "maxBlocksPerSM",
    "regsPerSM",
    "regsPerBlock",
    "regAllocUnit",
    "maxRegsPerThread",
    "subPartitionsPerSM",
    "sharedMemPerSM",
    "sharedMemPerBlock",
    "sharedMemPerBlockOptin",
    "reservedSharedMemPerBlock",
    "smemAllocUnit",
    "maxBarriersPerSM",
    "barrierLimitEnforced",
    "maxVirtualResourcesPerSM",
    "partitionedGlobalCaching",
    "carveoutBytes",
};

ArchLimits parseArch(const json &J, size_t Index) {
  std::string Where = "archs[" + std::to_string(Index) + "]";
  if (!J.is_object())
    fail(Where, "must be an object");
  ArchLimits A;
  A.name = getString(J, "name", Where);
  Where += " (" + A.name + ")";
  constexpr int64_t SizeMax = int64_t(1) << 40;
  A.major = int(getInt(J, "major", Where, 1, 99));
  A.minor = int(getInt(J, "minor", Where, 0, 9));
  if (A.name != "sm_" + std::to_string(A.major) + std::to_string(A.minor))
    fail(Where, "field 'name' must be sm_" + std::to_string(A.major) + std::to_string(A.minor) +
                    " to match 'major' and 'minor'");
  A.family = getString(J, "family", Where);
  A.defaultProduct = getString(J, "defaultProduct", Where);
  A.warpSize = int(getInt(J, "warpSize", Where, 1, 1024));
  A.maxThreadsPerBlock = int(getInt(J, "maxThreadsPerBlock", Where, 1));
  A.maxThreadsPerSM = int(getInt(J, "maxThreadsPerSM", Where, 1));
  A.maxWarpsPerSM = int(getInt(J, "maxWarpsPerSM", Where, 1));
  A.maxBlocksPerSM = int(getInt(J, "maxBlocksPerSM", Where, 1));
  A.regsPerSM = int(getInt(J, "regsPerSM", Where, 1));
  A.regsPerBlock = int(getInt(J, "regsPerBlock", Where, 1));
  A.regAllocUnit = int(getInt(J, "regAllocUnit", Where, 1));
  A.maxRegsPerThread = int(getInt(J, "maxRegsPerThread", Where, 1));
  A.subPartitionsPerSM = int(getInt(J, "subPartitionsPerSM", Where, 1));
  A.sharedMemPerSM = getInt(J, "sharedMemPerSM", Where, 1, SizeMax);
  A.sharedMemPerBlock = getInt(J, "sharedMemPerBlock", Where, 1, SizeMax);
  A.sharedMemPerBlockOptin = getInt(J, "sharedMemPerBlockOptin", Where, 1, SizeMax);
  A.reservedSharedMemPerBlock = getInt(J, "reservedSharedMemPerBlock", Where, 0, SizeMax);
  A.smemAllocUnit = int(getInt(J, "smemAllocUnit", Where, 1));
  A.maxBarriersPerSM = int(getInt(J, "maxBarriersPerSM", Where, 1));
  A.barrierLimitEnforced = getBool(J, "barrierLimitEnforced", Where);
  A.maxVirtualResourcesPerSM = int(getInt(J, "maxVirtualResourcesPerSM", Where, 0));
  A.partitionedGlobalCaching = getBool(J, "partitionedGlobalCaching", Where);

  const json &C = require(J, "carveoutBytes", Where);
  if (!C.is_array())
    fail(Where, "field 'carveoutBytes' must be an array of byte counts");
  for (const json &E : C) {
    if (!E.is_number_integer() || E.get<int64_t>() < 0)
      fail(Where, "field 'carveoutBytes' must hold non-negative integers, got " + E.dump());
    int64_t V = E.get<int64_t>();
    if (!A.carveoutBytes.empty() && V <= A.carveoutBytes.back())
      fail(Where, "field 'carveoutBytes' must be strictly ascending");
    A.carveoutBytes.push_back(V);
  }

  if (auto It = J.find("note"); It != J.end()) {
    if (!It->is_string())
      fail(Where, "field 'note' must be a string");
    A.note = It->get<std::string>();
  }

  const json &Src = require(J, "sources", Where);
  if (!Src.is_object())
    fail(Where, "field 'sources' must be an object mapping field names to sources");
  for (auto It = Src.begin(); It != Src.end(); ++It) {
    if (!It.value().is_string() || It.value().get<std::string>().empty())
      fail(Where, "field 'sources' entry '" + It.key() + "' must be a non-empty string");
    // A key may name a group of fields: "warpSize,maxThreadsPerBlock".
    std::string_view Keys = It.key();
    while (!Keys.empty()) {
      size_t Comma = Keys.find(',');
      std::string Key(trim(Keys.substr(0, Comma)));
      if (std::find(std::begin(kSourcedFields), std::end(kSourcedFields), Key) == std::end(kSourcedFields))
        fail(Where, "field 'sources' names unknown field '" + Key + "'");
      A.sources[Key] = It.value().get<std::string>();
      Keys = Comma == std::string_view::npos ? std::string_view() : Keys.substr(Comma + 1);
    }
  }
  for (const char *F : kSourcedFields)
    if (!A.sources.count(F))
      fail(Where, std::string("field 'sources' has no entry for '") + F + "'");

  // Consistency checks: catch typos that would silently skew occupancy.
  if (int64_t(A.maxWarpsPerSM) * A.warpSize != A.maxThreadsPerSM)
    fail(Where, "field 'maxWarpsPerSM' must equal maxThreadsPerSM / warpSize (" +
                    std::to_string(A.maxThreadsPerSM / A.warpSize) + ")");
  if (A.maxThreadsPerBlock > A.maxThreadsPerSM)
    fail(Where, "field 'maxThreadsPerBlock' exceeds maxThreadsPerSM");
  if (A.regsPerBlock > A.regsPerSM)
    fail(Where, "field 'regsPerBlock' exceeds regsPerSM");
  if (A.sharedMemPerBlock > A.sharedMemPerBlockOptin)
    fail(Where, "field 'sharedMemPerBlockOptin' is smaller than sharedMemPerBlock");
  if (A.sharedMemPerBlockOptin > A.sharedMemPerSM)
    fail(Where, "field 'sharedMemPerBlockOptin' exceeds sharedMemPerSM");
  if (!A.carveoutBytes.empty() && A.carveoutBytes.back() != A.sharedMemPerSM)
    fail(Where, "field 'carveoutBytes' must end with sharedMemPerSM (" + std::to_string(A.sharedMemPerSM) + ")");
  if (A.major >= 7 && A.carveoutBytes.empty())
    fail(Where, "field 'carveoutBytes' must not be empty from compute capability 7.0 on");
  return A;
}

GpuProduct parseProduct(const json &J, size_t Index) {
  std::string Where = "products[" + std::to_string(Index) + "]";
  if (!J.is_object())
    fail(Where, "must be an object");
  GpuProduct P;
  P.name = getString(J, "name", Where);
  Where += " (" + P.name + ")";
  P.arch = getString(J, "arch", Where);
  P.smCount = int(getInt(J, "smCount", Where, 1, 100000));
  P.source = getString(J, "source", Where);
  if (auto It = J.find("throughput"); It != J.end()) {
    const std::string In = Where + ".throughput";
    if (!It->is_object())
      fail(In, "must be an object");
    ProductThroughput T;
    auto Positive = [&](const char *Key) {
      const auto F = It->find(Key);
      if (F == It->end() || !F->is_number() || F->get<double>() <= 0 || F->get<double>() > 1e7)
        fail(In, std::string("field '") + Key + "' must be a positive number");
      return F->get<double>();
    };
    T.memoryBandwidthGBs = Positive("memoryBandwidthGBs");
    T.boostClockMHz = Positive("boostClockMHz");
    T.fp32Tflops = Positive("fp32Tflops");
    T.tensorFp16Tflops = Positive("tensorFp16Tflops");
    T.source = getString(*It, "source", In);
    P.throughput = std::move(T);
  }
  if (auto It = J.find("aliases"); It != J.end()) {
    if (!It->is_array())
      fail(Where, "field 'aliases' must be an array of strings");
    for (const json &A : *It) {
      if (!A.is_string() || A.get<std::string>().empty())
        fail(Where, "field 'aliases' must hold non-empty strings, got " + A.dump());
      P.aliases.push_back(A.get<std::string>());
    }
  }
  return P;
}

} // namespace

std::string ArchLimits::sourceOf(const std::string &field) const {
  auto It = sources.find(field);
  return It == sources.end() ? std::string() : It->second;
}

const GpuDatabase &GpuDatabase::builtin() {
  static const GpuDatabase DB = fromJson(kBuiltinGpuDatabaseJson);
  return DB;
}

GpuDatabase GpuDatabase::fromJson(std::string_view jsonText) {
  json Root;
  try {
    Root = json::parse(jsonText.begin(), jsonText.end());
  } catch (const json::parse_error &E) {
    throw std::runtime_error(std::string("GPU database: malformed JSON: ") + E.what());
  }
  if (!Root.is_object())
    fail("top level", "must be an object with 'archs' and 'products'");
  const json &Archs = require(Root, "archs", "top level");
  const json &Products = require(Root, "products", "top level");
  if (!Archs.is_array())
    fail("top level", "field 'archs' must be an array");
  if (!Products.is_array())
    fail("top level", "field 'products' must be an array");

  GpuDatabase DB;
  std::set<std::string> ArchNames;
  for (size_t I = 0; I < Archs.size(); ++I) {
    ArchLimits A = parseArch(Archs[I], I);
    if (!ArchNames.insert(A.name).second)
      fail("archs[" + std::to_string(I) + "]", "duplicate arch '" + A.name + "'");
    DB.Archs.push_back(std::move(A));
  }
  std::set<std::string> Keys;
  for (size_t I = 0; I < Products.size(); ++I) {
    GpuProduct P = parseProduct(Products[I], I);
    std::string Where = "products[" + std::to_string(I) + "] (" + P.name + ")";
    if (!ArchNames.count(P.arch))
      fail(Where, "field 'arch' names unknown arch '" + P.arch + "'");
    std::vector<std::string> Names = P.aliases;
    Names.insert(Names.begin(), P.name);
    for (const std::string &N : Names) {
      std::string K = normalizeName(N);
      if (K.empty())
        fail(Where, "name or alias '" + N + "' is empty once spaces, '-' and '_' are dropped");
      if (!Keys.insert(K).second)
        fail(Where, "name or alias '" + N + "' is already used by another product");
      if (parseArchSpec(N))
        fail(Where, "name or alias '" + N + "' would be read as an architecture");
    }
    DB.Products.push_back(std::move(P));
  }
  for (const ArchLimits &A : DB.Archs)
    if (!DB.findProduct(A.defaultProduct))
      fail("archs (" + A.name + ")", "field 'defaultProduct' names unknown product '" + A.defaultProduct + "'");
  return DB;
}

const ArchLimits *GpuDatabase::findArch(std::string_view spec) const {
  auto MM = parseArchSpec(spec);
  if (!MM)
    return nullptr;
  for (const ArchLimits &A : Archs)
    if (A.major == MM->first && A.minor == MM->second)
      return &A;
  return nullptr;
}

const GpuProduct *GpuDatabase::findProduct(std::string_view name) const {
  std::string K = normalizeName(trim(name));
  if (K.empty())
    return nullptr;
  for (const GpuProduct &P : Products) {
    if (normalizeName(P.name) == K)
      return &P;
    for (const std::string &A : P.aliases)
      if (normalizeName(A) == K)
        return &P;
  }
  return nullptr;
}

std::vector<std::string> GpuDatabase::closeMatches(std::string_view spec, size_t maxCount) const {
  std::string K = normalizeName(trim(spec));
  if (K.empty() || maxCount == 0)
    return {};
  // One candidate per product (its best-matching name or alias) and per arch.
  struct Cand {
    size_t Dist;
    size_t Prefix; // common prefix length: breaks ties ("H1000" -> H200 before P100)
    size_t Order;
    std::string Name;
  };
  std::vector<Cand> Cands;
  auto Best = [&](const std::vector<std::string> &Names) {
    Cand C{std::numeric_limits<size_t>::max(), 0, Cands.size(), ""};
    for (const std::string &N : Names) {
      std::string NK = normalizeName(N);
      size_t D = editDistance(K, NK);
      // A fragment of a name ("4090", "pcie") counts as close.
      if (K.size() >= 3 && NK.find(K) != std::string::npos)
        D = std::min<size_t>(D, 1);
      size_t P = 0;
      while (P < K.size() && P < NK.size() && K[P] == NK[P])
        ++P;
      if (D < C.Dist || (D == C.Dist && P > C.Prefix)) {
        C.Dist = D;
        C.Prefix = P;
        C.Name = N;
      }
    }
    Cands.push_back(C);
  };
  for (const GpuProduct &P : Products) {
    std::vector<std::string> Names = P.aliases;
    Names.insert(Names.begin(), P.name);
    Best(Names);
  }
  for (const ArchLimits &A : Archs)
    Best({A.name});
  size_t Limit = std::max<size_t>(2, (K.size() + 1) / 2);
  std::erase_if(Cands, [&](const Cand &C) { return C.Dist > Limit; });
  std::stable_sort(Cands.begin(), Cands.end(), [](const Cand &A, const Cand &B) {
    if (A.Dist != B.Dist)
      return A.Dist < B.Dist;
    if (A.Prefix != B.Prefix)
      return A.Prefix > B.Prefix;
    return A.Order < B.Order;
  });
  std::vector<std::string> R;
  for (const Cand &C : Cands) {
    if (R.size() == maxCount)
      break;
    R.push_back(C.Name);
  }
  return R;
}

std::optional<TargetGpu> GpuDatabase::resolve(std::string_view spec, std::string &error) const {
  try {
    std::string_view S = trim(spec);
    if (S.empty()) {
      error = "empty GPU name; expected a product (e.g. H100) or an architecture (e.g. sm_90)";
      return std::nullopt;
    }
    std::string_view Base = S;
    std::optional<int> ExplicitSms;
    if (size_t Colon = S.rfind(':'); Colon != std::string_view::npos) {
      Base = trim(S.substr(0, Colon));
      std::string_view Count = trim(S.substr(Colon + 1));
      auto N = parseSmallInt(Count);
      if (!N || *N <= 0 || *N > 100000) {
        error =
            "invalid SM count '" + std::string(Count) + "' in '" + std::string(S) + "'; expected a positive integer";
        return std::nullopt;
      }
      ExplicitSms = *N;
    }
    auto ArchOf = [&](const GpuProduct &P) -> const ArchLimits * {
      for (const ArchLimits &A : Archs)
        if (A.name == P.arch)
          return &A;
      return nullptr;
    };
    if (const GpuProduct *P = findProduct(Base)) {
      if (const ArchLimits *A = ArchOf(*P)) {
        TargetGpu T{*A, P->name, P->smCount};
        T.throughput = P->throughput;
        if (ExplicitSms) {
          T.smCount = *ExplicitSms;
          T.productName = P->name + ":" + std::to_string(*ExplicitSms);
          T.throughput.reset(); // another part: the product's rates do not apply
        }
        return T;
      }
    }
    if (const ArchLimits *A = findArch(Base)) {
      if (ExplicitSms)
        return TargetGpu{*A, A->name + ":" + std::to_string(*ExplicitSms), *ExplicitSms};
      const GpuProduct *P = findProduct(A->defaultProduct);
      if (!P) {
        error = "architecture '" + A->name + "' has no default product '" + A->defaultProduct +
                "'; give an SM count, e.g. '" + A->name + ":100'";
        return std::nullopt;
      }
      TargetGpu T{*A, P->name, P->smCount};
      T.productAssumed = true;
      T.throughput = P->throughput;
      return T;
    }
    std::vector<std::string> Close = closeMatches(Base);
    std::string Suggest;
    for (const std::string &C : Close)
      Suggest += (Suggest.empty() ? "" : ", ") + C;
    if (looksLikeArchSpec(Base)) {
      std::string Known;
      for (const ArchLimits &A : Archs)
        Known += (Known.empty() ? "" : ", ") + A.name;
      error = "unknown architecture '" + std::string(Base) + "'; known architectures: " + Known;
    } else if (!Suggest.empty()) {
      error = "unknown GPU '" + std::string(Base) + "'; did you mean: " + Suggest + "?";
    } else {
      error = "unknown GPU '" + std::string(Base) +
              "'; expected a product (e.g. H100, A100, RTX 4090) or an architecture (e.g. "
              "sm_90), optionally with ':<SM count>'";
    }
    return std::nullopt;
  } catch (const std::exception &E) {
    error = std::string("cannot resolve GPU '") + std::string(spec) + "': " + E.what();
    return std::nullopt;
  }
}

} // namespace occlint
