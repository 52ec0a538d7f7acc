#pragma once
/// The project file's schema: its application id, its version (PRAGMA user_version) and
/// the ordered migrations that bring a file of any earlier version to the current one.

#include <string>
#include <vector>

namespace variate::store {

class Database;

/// PRAGMA application_id of every Variate project ("VRTE").
constexpr int kProjectApplicationId = 0x56525445;

/// The version this build writes: the number of migrations.
int current_schema_version();

/// The tables a file of `version` must have.
std::vector<std::string> schema_tables(int version);

/// Creates the current schema in an empty database, in one transaction.
void create_schema(Database& db);

/// Brings a file of `from_version` (1 <= from_version < current) to the current version,
/// in one transaction: either every migration applies or the file is unchanged.
void migrate_schema(Database& db, int from_version);

}  // namespace variate::store
