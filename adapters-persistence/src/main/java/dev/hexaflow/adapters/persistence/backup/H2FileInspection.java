package dev.hexaflow.adapters.persistence.backup;

import dev.hexaflow.application.backup.port.out.DatabaseSnapshots.SnapshotException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;
import org.h2.mvstore.type.DataType;
import org.h2.mvstore.type.LongDataType;
import org.h2.mvstore.type.MetaType;
import org.h2.mvstore.type.StringDataType;
import org.h2.result.SearchRow;
import org.h2.value.Value;
import org.h2.value.ValueVarchar;
import org.h2.value.VersionedValue;

/**
 * Reads what an H2 database file would make H2 do when opened, from its storage (the MVStore under the database),
 * without opening it as a database: nothing in the file is loaded, compiled, deserialized or run here.
 *
 * <p>Opening a file with H2's engine runs it in three ways, each checked before anything else may open it:
 * <ul>
 *   <li>the type registry (map {@code _}) names a Java class for each stored data type, which H2 loads, initializes
 *       and makes with its no-argument constructor; every name must be one of H2's own row and value types;</li>
 *   <li>prepared transactions ({@code openTransactions}) are stored as serialized Java objects, which H2 reads with
 *       an {@code ObjectInputStream}; Hexaflow never prepares one, so a file that holds any is refused;</li>
 *   <li>the schema table ({@code table.0}) holds the SQL statements H2 runs at open (a trigger's class is made and
 *       its Java source compiled and run then; an alias's source is compiled), and an unfinished transaction's undo
 *       log holds rows H2 puts back into it; every statement, committed, uncommitted or to be put back, must be one
 *       {@link H2SchemaPolicy} admits.</li>
 * </ul>
 * Data rows are not read: H2 reads their values (a Java object column included) as bytes.
 */
final class H2FileInspection {

    private static final String REGISTRY = "_";
    private static final String SCHEMA_TABLE = "table.0";
    private static final String PREPARED_TRANSACTIONS = "openTransactions";
    private static final String UNDO_LOG_PREFIX = "undoLog";

    /** H2's own stored types; a factory's class name is followed by its state, the others stand alone. */
    private static final String VERSIONED = "org.h2.mvstore.tx.VersionedValueType$Factory";
    private static final String ROW = "org.h2.mvstore.db.RowDataType$Factory";
    private static final String VALUE = "org.h2.mvstore.db.ValueDataType$Factory";
    private static final String LONG = "org.h2.mvstore.type.LongDataType";
    private static final Set<String> SINGLETONS = Set.of(LONG, "org.h2.mvstore.type.StringDataType",
            "org.h2.mvstore.type.ByteArrayDataType", "org.h2.mvstore.db.NullValueDataType",
            "org.h2.mvstore.db.LobStorageMap$BlobReference$Type", "org.h2.mvstore.db.LobStorageMap$BlobMeta$Type");

    /** The schema table's row: ID, HEAD, TYPE and SQL. */
    private static final int SCHEMA_COLUMNS = 4;
    private static final int SQL_COLUMN = 3;

    private H2FileInspection() {
    }

    /**
     * What in the file H2 would run or load as code, one line each (empty for a file that holds only what a
     * Hexaflow database holds).
     *
     * @throws SnapshotException when the file is not an H2 database this can read
     */
    static List<String> findings(Path file) {
        Set<String> findings = new LinkedHashSet<>();
        try (MVStore store = new MVStore.Builder().fileName(file.toAbsolutePath().toString()).readOnly().open()) {
            Map<String, String> layout = store.getMetaMap();
            if (store.hasData(PREPARED_TRANSACTIONS)) {
                findings.add("prepared transactions, which H2 keeps as serialized Java objects");
            }
            Map<String, StoredType> registry;
            try {
                registry = registry(store);
            } catch (RuntimeException e) {
                ForeignTypeException foreign = foreign(e);
                if (foreign == null) {
                    throw e;
                }
                findings.add(foreign.getMessage());
                return List.copyOf(findings);
            }
            String schemaId = layout.get("name." + SCHEMA_TABLE);
            if (schemaId == null) {
                throw new SnapshotException("it holds no H2 schema: not an H2 database", null);
            }
            Map<String, String> schemaMap = DataUtils.parseMap(layout.get("map." + schemaId));
            if (!isLong(registry.get(schemaMap.get("key"))) || !isSchemaRow(registry.get(schemaMap.get("val")))) {
                findings.add("a schema table not stored the way H2 stores it, which H2 could read otherwise than "
                        + "this check does");
                return List.copyOf(findings);
            }
            MVMap<Long, VersionedValue<SearchRow>> schema = store.openMap(SCHEMA_TABLE,
                    new MVMap.Builder<Long, VersionedValue<SearchRow>>().keyType(LongDataType.INSTANCE)
                            .valueType(dataType(registry.get(schemaMap.get("val")))));
            for (VersionedValue<SearchRow> row : schema.values()) {
                check(row, findings);
            }
            int schemaMapId = Integer.parseInt(schemaId, 16);
            UndoRecords undo = new UndoRecords(mapId -> mapTypes(layout, registry, mapId));
            for (String name : store.getMapNames()) {
                // H2 drops a log named only "undoLog" (an older layout) unread.
                if (name.startsWith(UNDO_LOG_PREFIX) && name.length() > UNDO_LOG_PREFIX.length()
                        && store.hasData(name)) {
                    MVMap<Long, UndoRecord> log = store.openMap(name, new MVMap.Builder<Long, UndoRecord>()
                            .keyType(LongDataType.INSTANCE).valueType(undo));
                    for (UndoRecord record : log.values()) {
                        if (record.mapId() == schemaMapId) {
                            checkPutBack(record.oldValue(), findings);
                        }
                    }
                }
            }
        } catch (SnapshotException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new SnapshotException("not an H2 database this Hexaflow reads: " + firstLine(e), e);
        }
        return List.copyOf(findings);
    }

    /** A schema row an undo log would put back. */
    @SuppressWarnings("unchecked")
    private static void checkPutBack(Object oldValue, Set<String> findings) {
        if (oldValue == null) {
            return;
        }
        if (oldValue instanceof VersionedValue<?> versioned
                && (versioned.getCurrentValue() == null || versioned.getCurrentValue() instanceof SearchRow)
                && (versioned.getCommittedValue() == null || versioned.getCommittedValue() instanceof SearchRow)) {
            check((VersionedValue<SearchRow>) oldValue, findings);
        } else {
            findings.add("an undo log that would put something other than a schema row into the schema");
        }
    }

    private static void check(VersionedValue<SearchRow> row, Set<String> findings) {
        if (row == null) {
            return;
        }
        for (SearchRow version : new SearchRow[] {row.getCurrentValue(), row.getCommittedValue()}) {
            if (version == null) {
                continue;
            }
            Value sql = version.getValue(SQL_COLUMN);
            if (!(sql instanceof ValueVarchar)) {
                findings.add("a schema statement that is not text");
            } else {
                H2SchemaPolicy.refusal(sql.getString()).ifPresent(findings::add);
            }
        }
    }

    /** Every stored type by its registration key, each read without loading a class. */
    private static Map<String, StoredType> registry(MVStore store) {
        Map<String, StoredType> registry = new HashMap<>();
        if (store.hasMap(REGISTRY)) {
            MVMap<String, StoredType> map = store.openMap(REGISTRY, new MVMap.Builder<String, StoredType>()
                    .keyType(StringDataType.INSTANCE).valueType(new StoredTypes()));
            for (Map.Entry<String, StoredType> entry : map.entrySet()) {
                registry.put(entry.getKey(), entry.getValue());
            }
        }
        return registry;
    }

    private static boolean isLong(StoredType type) {
        return type != null && type.className().equals(LONG);
    }

    /** A versioned row of four columns, all stored, no key: as H2 makes the schema table's. */
    private static boolean isSchemaRow(StoredType type) {
        if (type == null || !type.className().equals(VERSIONED) || type.inner() == null) {
            return false;
        }
        StoredType row = type.inner();
        return row.className().equals(ROW) && row.columnCount() == SCHEMA_COLUMNS && !row.indexed()
                && !row.storeKeys();
    }

    /**
     * H2's own object for a stored type. Only called once every class name in {@code type} is one of H2's own types
     * ({@link StoredTypes} refuses any other), so the class loading H2's reader does here is of those alone.
     */
    @SuppressWarnings("unchecked")
    private static <T> DataType<T> dataType(StoredType type) {
        return (DataType<T>) new MetaType<Void>(null, null).read(ByteBuffer.wrap(type.bytes()));
    }

    /** The key and value types of map {@code mapId}, as H2 opens it when an undo log names it. */
    private static MapTypes mapTypes(Map<String, String> layout, Map<String, StoredType> registry, int mapId) {
        String config = layout.get("map." + Integer.toHexString(mapId));
        if (config == null) {
            throw new IllegalStateException("an undo log names map " + mapId + ", which the file does not hold");
        }
        Map<String, String> settings = DataUtils.parseMap(config);
        StoredType key = registry.get(settings.get("key"));
        StoredType value = registry.get(settings.get("val"));
        if (key == null || value == null) {
            throw new IllegalStateException("an undo log names map " + mapId + ", whose types are not stored");
        }
        return new MapTypes(dataType(key), dataType(value));
    }

    private static ForeignTypeException foreign(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ForeignTypeException foreign) {
                return foreign;
            }
        }
        return null;
    }

    private static String firstLine(Throwable e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        return message.lines().findFirst().orElse(message);
    }

    /** A stored data type as the registry holds it: its class name, what it was saved with, and its bytes. */
    private record StoredType(String className, StoredType inner, int columnCount, boolean indexed,
            boolean storeKeys, byte[] bytes) {
    }

    /** The registry's values, read as H2's {@code MetaType} writes them, refusing any class but H2's own types. */
    private static final class StoredTypes extends BasicDataType<StoredType> {

        private static final int MAX_NAME = 200;
        private static final int MAX_DEPTH = 4;
        private static final int MAX_COLUMNS = 100_000;

        @Override
        public StoredType read(ByteBuffer buff) {
            int start = buff.position();
            StoredType type = read(buff, 0);
            byte[] bytes = new byte[buff.position() - start];
            buff.get(start, bytes);
            return new StoredType(type.className(), type.inner(), type.columnCount(), type.indexed(),
                    type.storeKeys(), bytes);
        }

        private static StoredType read(ByteBuffer buff, int depth) {
            int length = DataUtils.readVarInt(buff);
            if (length < 0 || length > MAX_NAME) {
                throw new ForeignTypeException("a stored type whose class name is " + length + " characters long");
            }
            String name = DataUtils.readString(buff, length);
            if (SINGLETONS.contains(name)) {
                return new StoredType(name, null, 0, false, false, null);
            }
            switch (name) {
                case VERSIONED -> {
                    if (depth >= MAX_DEPTH) {
                        throw new ForeignTypeException("a stored type nested " + depth + " deep");
                    }
                    return new StoredType(name, read(buff, depth + 1), 0, false, false, null);
                }
                case ROW -> {
                    int columns = count(buff);
                    skipInts(buff);
                    boolean indexed = skipInts(buff);
                    return new StoredType(name, null, columns, indexed, buff.get() != 0, null);
                }
                case VALUE -> {
                    skipInts(buff);
                    int columns = count(buff);
                    boolean indexed = skipInts(buff);
                    return new StoredType(name, null, columns, indexed, buff.get() != 0, null);
                }
                default -> throw new ForeignTypeException("a stored type that names the Java class "
                        + name.replaceAll("[^\\w.$]", "?") + ", which H2 would load and make");
            }
        }

        private static int count(ByteBuffer buff) {
            int count = DataUtils.readVarInt(buff);
            if (count < 0 || count > MAX_COLUMNS) {
                throw new ForeignTypeException("a stored type of " + count + " columns");
            }
            return count;
        }

        /** Skips an array of ints as H2 writes them (its length plus one, 0 for none); answers whether it had one. */
        private static boolean skipInts(ByteBuffer buff) {
            int length = count(buff) - 1;
            for (int i = 0; i < length; i++) {
                DataUtils.readVarInt(buff);
            }
            return length >= 0;
        }

        @Override
        public int getMemory(StoredType type) {
            return 64;
        }

        @Override
        public void write(WriteBuffer buff, StoredType type) {
            throw new UnsupportedOperationException("the file is only read");
        }

        @Override
        public StoredType[] createStorage(int size) {
            return new StoredType[size];
        }
    }

    private record MapTypes(DataType<Object> key, DataType<Object> value) {
    }

    /** One change an unfinished transaction made: the map it changed and the value a rollback puts back. */
    private record UndoRecord(int mapId, Object oldValue) {
    }

    /** An undo log's records, read as H2's {@code Record.Type} writes them. */
    private static final class UndoRecords extends BasicDataType<UndoRecord> {
        private final java.util.function.IntFunction<MapTypes> types;
        private final Map<Integer, MapTypes> known = new HashMap<>();

        UndoRecords(java.util.function.IntFunction<MapTypes> types) {
            this.types = types;
        }

        @Override
        public UndoRecord read(ByteBuffer buff) {
            int mapId = DataUtils.readVarInt(buff);
            if (mapId < 0) {
                // A marker of a committed transaction: no change.
                return new UndoRecord(mapId, null);
            }
            MapTypes map = known.computeIfAbsent(mapId, types::apply);
            map.key().read(buff);
            return new UndoRecord(mapId, buff.get() == 1 ? map.value().read(buff) : null);
        }

        @Override
        public int getMemory(UndoRecord record) {
            return 64;
        }

        @Override
        public void write(WriteBuffer buff, UndoRecord record) {
            throw new UnsupportedOperationException("the file is only read");
        }

        @Override
        public UndoRecord[] createStorage(int size) {
            return new UndoRecord[size];
        }
    }

    /** The registry names a type that is not one of H2's own. */
    private static final class ForeignTypeException extends RuntimeException {
        ForeignTypeException(String message) {
            super(message);
        }
    }
}
