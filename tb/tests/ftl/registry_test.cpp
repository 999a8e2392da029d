// The registry of schemes and policies (firmware/ftl/registry.h) against the platform's names.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

extern "C" {
#include "boot_config.h"
#include "ftl/registry.h"
}

namespace {

const char* const kSchemeNames[] = BOOT_SCHEME_NAMES;
const char* const kVictimNames[] = BOOT_GC_VICTIM_NAMES;
const char* const kGroupingNames[] = BOOT_FSP_NAMES;

// The boot names list of a kind, and its length.
std::pair<const char* const*, uint32_t> names_of(uint32_t kind) {
  switch (kind) {
    case REGISTRY_SCHEME: return {kSchemeNames, BOOT_SCHEME_COUNT};
    case REGISTRY_VICTIM: return {kVictimNames, BOOT_GC_VICTIM_COUNT};
    default: return {kGroupingNames, BOOT_FSP_COUNT};
  }
}

const char* own_name(const registry_entry_t& entry) {
  switch (entry.kind) {
    case REGISTRY_SCHEME: return entry.of.scheme->name;
    case REGISTRY_VICTIM: return entry.of.victim->name;
    default: return entry.of.grouping->name;
  }
}

TEST(Registry, EachEntryIsNamedAsThePlatformNamesItsBootValue) {
  std::set<std::pair<uint32_t, uint32_t>> seen;
  for (uint32_t i = 0; i < ftl_registry_size; ++i) {
    const registry_entry_t& entry = ftl_registry[i];
    auto [names, count] = names_of(entry.kind);
    ASSERT_LT(entry.boot_id, count) << entry.name;
    EXPECT_STREQ(entry.name, names[entry.boot_id]);
    EXPECT_STREQ(own_name(entry), entry.name);
    EXPECT_TRUE(seen.insert({entry.kind, entry.boot_id}).second) << "twice: " << entry.name;
    EXPECT_EQ(registry_find(static_cast<registry_kind_t>(entry.kind), entry.boot_id), &entry);
  }
}

TEST(Registry, EveryPolicyThePlatformOffersIsImplementedAndUnknownValuesAreNot) {
  for (uint32_t id = 0; id < BOOT_GC_VICTIM_COUNT; ++id) {
    EXPECT_NE(registry_find(REGISTRY_VICTIM, id), nullptr) << kVictimNames[id];
  }
  for (uint32_t id = 0; id < BOOT_FSP_COUNT; ++id) {
    EXPECT_NE(registry_find(REGISTRY_GROUPING, id), nullptr) << kGroupingNames[id];
  }
  for (uint32_t id : {BOOT_SCHEME_IDEAL, BOOT_SCHEME_DFTL, BOOT_SCHEME_TPFTL, BOOT_SCHEME_SFTL}) {
    EXPECT_NE(registry_find(REGISTRY_SCHEME, id), nullptr) << kSchemeNames[id];
  }
  EXPECT_EQ(registry_find(REGISTRY_VICTIM, BOOT_GC_VICTIM_COUNT), nullptr);
  EXPECT_EQ(registry_find(REGISTRY_GROUPING, BOOT_FSP_COUNT), nullptr);
  EXPECT_EQ(registry_find(REGISTRY_SCHEME, BOOT_SCHEME_COUNT), nullptr);
}

}  // namespace
