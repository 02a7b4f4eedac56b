import GRDB
import LecternSchedule

/// A run's trigger is stored as its raw value (`manual`, `api`, `schedule`, `watch`) in the
/// `run` table's `trigger` column; a value the type does not know fails to decode.
extension Trigger: DatabaseValueConvertible {}
