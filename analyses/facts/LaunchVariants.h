// A launch's values where its own function does not pin them down: the
// guards around it, the callers of a helper it is written in (bound
// parameter by parameter, context-sensitively), and finite sets (case labels
// falling into one place, elements of a constant array read at an unknown
// index) give variants, each with exact values where the source proves them.
//
// Bounds: at most MaxCallDepth calls out from the launch's function, at most
// MaxPaths contexts followed (the cost) and MaxVariants distinct sets of
// values per launch (what is reported: two callers of a sweep over six
// block sizes are twelve paths but six variants); what a bound cuts is said
// in the variants' LaunchValueSet (incompleteBecause) and the unknown
// reasons.
#pragma once

#include "facts/CallSites.h"
#include "facts/LaunchSites.h"
#include "values/ValueEvaluator.h"

#include <vector>

namespace clang::tidy::occlint {

inline constexpr unsigned MaxCallDepth = 4;
inline constexpr unsigned MaxVariants = 8;
inline constexpr unsigned MaxPaths = 64;

/// The variants of `Site` (as recognizeLaunch built it): one site when a
/// single set of values results (possibly refined by guards or callers),
/// several when the launch takes several, each with its call chain and
/// index in LaunchSite::values; always at least one.
/// `Base` gives the target GPU and the kernels' resources (its frames and
/// picks are ignored); without a target, a launch whose values depend on the
/// GPU comes back with needsTarget set.
std::vector<LaunchSite> launchVariants(const LaunchSite &Site, ValueEvaluator &Values, CallSiteIndex &Calls,
                                       const ValueContext &Base = {});

} // namespace clang::tidy::occlint
