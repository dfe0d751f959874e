package dev.hexaflow.adapters.persistence.backup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.H2Database;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;
import org.h2.mvstore.type.DataType;
import org.h2.mvstore.type.LongDataType;
import org.h2.mvstore.type.MetaType;
import org.h2.mvstore.type.StringDataType;
import org.h2.result.Row;
import org.h2.result.SearchRow;
import org.h2.value.Value;
import org.h2.value.ValueInteger;
import org.h2.value.ValueVarchar;
import org.h2.value.VersionedValue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database file read for what opening it would load or run, without opening it: each way H2 runs a file (its
 * schema's statements, its stored types' class names, its prepared transactions' serialized objects, its undo logs'
 * rows) is met by a file crafted to use it, and nothing in any of them is loaded or run by the reading.
 */
class H2FileInspectionTest {

    @TempDir
    Path work;

    private Path database;

    /** A database as Hexaflow makes it: every migration of this build. */
    @BeforeEach
    void migrate() {
        H2Database.openFile(work).close();
        database = work.resolve("hexaflow.mv.db");
    }

    @Test
    void aDatabaseMadeByThisBuildsMigrationsHoldsNothingToRefuse() {
        assertThat(H2FileInspection.findings(database)).isEmpty();
    }

    @Test
    void triggersAliasesAggregatesLinkedTablesViewsDomainsAndFunctionCallsAreFoundByNameAndNothingRuns()
            throws Exception {
        Path mark = work.resolve("ran");
        String write = "java.nio.file.Files.writeString(java.nio.file.Path.of(\""
                + mark.toAbsolutePath().toString().replace("\\", "\\\\") + "\"), \"ran\");";
        sql("CREATE FORCE TRIGGER \"CLASS_MARK\" BEFORE INSERT ON \"APP\" FOR EACH ROW CALL 'x.Marker'",
                "CREATE FORCE ALIAS \"METHOD\" FOR 'java.lang.Runtime.getRuntime'",
                "CREATE FORCE AGGREGATE \"AGGREGATE\" FOR 'x.Aggregate'",
                "CREATE ALIAS \"SOURCE\" AS $$String source() throws Exception { " + write + " return \"\"; }$$",
                "CREATE FORCE LINKED TABLE \"LINKED\"('org.h2.Driver', 'jdbc:h2:mem:', 'sa', '', 'NONE')",
                "CREATE VIEW \"VIEW\" AS SELECT SOURCE() AS \"X\"",
                "CREATE DOMAIN \"POSITIVE\" AS INTEGER CHECK (VALUE > 0)",
                "CREATE TABLE \"DEFAULTS\"(\"X\" VARCHAR DEFAULT RANDOM_UUID())");
        Files.deleteIfExists(mark);

        List<String> findings = H2FileInspection.findings(database);

        assertThat(String.join("\n", findings)).contains("trigger \"PUBLIC\".\"CLASS_MARK\"",
                "alias \"PUBLIC\".\"METHOD\"", "aggregate \"PUBLIC\".\"AGGREGATE\"", "alias \"PUBLIC\".\"SOURCE\"",
                "linked table \"PUBLIC\".\"LINKED\"", "view \"PUBLIC\".\"VIEW\"", "domain \"PUBLIC\".\"POSITIVE\"",
                "table \"PUBLIC\".\"DEFAULTS\", which uses RANDOM_UUID");
        assertThat(mark).doesNotExist();
    }

    @Test
    void aStoredTypeNamingAClassOtherThanH2sOwnIsFoundWithoutLoadingIt() {
        try (MVStore store = new MVStore.Builder().fileName(database.toString()).open()) {
            store.openMap("_", new MVMap.Builder<String, String>().keyType(StringDataType.INSTANCE)
                    .valueType(new ClassNames())).put("00c0ffee", NeverLoaded.class.getName());
            store.commit();
        }

        assertThat(H2FileInspection.findings(database)).singleElement().asString()
                .contains("names the Java class " + NeverLoaded.class.getName());
        assertThat(Loads.neverLoaded).isFalse();
    }

    @Test
    void preparedTransactionsAreFoundWithoutDeserializingThem() {
        try (MVStore store = new MVStore.Builder().fileName(database.toString()).open()) {
            store.openMap("openTransactions").put(1, new Gadget());
            store.commit();
        }
        Gadget.deserialized = false;

        assertThat(H2FileInspection.findings(database)).containsExactly(
                "prepared transactions, which H2 keeps as serialized Java objects");
        assertThat(Gadget.deserialized).isFalse();
    }

    @Test
    void aSchemaStatementNotYetCommittedOrThatARollbackWouldPutBackIsCheckedAsACommittedOne() {
        String alias = "CREATE FORCE ALIAS \"PUBLIC\".\"PUT_BACK\" AS 'String a() { return \"\"; }'";
        String uncommitted = "CREATE FORCE TRIGGER \"PUBLIC\".\"UNCOMMITTED\" BEFORE INSERT ON \"PUBLIC\".\"APP\" "
                + "CALL 'x.Y'";
        try (MVStore store = new MVStore.Builder().fileName(database.toString()).open()) {
            Map<String, String> layout = store.getMetaMap();
            Map<String, String> schema = DataUtils.parseMap(layout.get("map." + layout.get("name.table.0")));
            MVMap<String, DataType<?>> registry = store.openMap("_", new MVMap.Builder<String, DataType<?>>()
                    .keyType(StringDataType.INSTANCE).valueType(new MetaType<>(null, null)));
            @SuppressWarnings("unchecked")
            DataType<VersionedValue<SearchRow>> rows = (DataType<VersionedValue<SearchRow>>) registry.get(
                    schema.get("val"));
            // An insert by transaction 7, never committed, into the schema table itself...
            store.openMap("table.0", new MVMap.Builder<Long, VersionedValue<SearchRow>>()
                    .keyType(LongDataType.INSTANCE).valueType(rows))
                    .put(9000L, versioned(rows, schemaRow(9000, uncommitted), (7L << 40) | 1));
            // ...and an undo log whose rollback would put a row there that the table never held.
            store.openMap("undoLog.7", new MVMap.Builder<Long, Object[]>().keyType(LongDataType.INSTANCE)
                    .valueType(new UndoRecords(Integer.parseInt(layout.get("name.table.0"), 16), rows)))
                    .put(7L << 40, new Object[] {9001L, versioned(rows, schemaRow(9001, alias), 0)});
            store.commit();
        }

        assertThat(String.join("\n", H2FileInspection.findings(database)))
                .contains("trigger \"PUBLIC\".\"UNCOMMITTED\"", "alias \"PUBLIC\".\"PUT_BACK\"");
    }

    private void sql(String... statements) throws Exception {
        try (Connection db = DriverManager.getConnection("jdbc:h2:file:" + work.toAbsolutePath().resolve("hexaflow"),
                "sa", ""); Statement statement = db.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
            statement.execute("SHUTDOWN");
        }
    }

    private static SearchRow schemaRow(int id, String sql) {
        return Row.get(new Value[] {ValueInteger.get(id), ValueInteger.get(0), ValueInteger.get(9),
            ValueVarchar.get(sql)}, 0);
    }

    /**
     * {@code row} as the schema table's value type stores it: committed ({@code operationId} 0), or the current value
     * of an operation not yet committed. The type writes a row as a committed value (its flags, then the row); an
     * uncommitted one is those bytes behind the flags and the operation H2 writes for it.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static VersionedValue<SearchRow> versioned(DataType<VersionedValue<SearchRow>> type, SearchRow row,
            long operationId) {
        WriteBuffer committed = new WriteBuffer();
        type.write(committed, (VersionedValue) row);
        ByteBuffer bytes = committed.getBuffer().flip();
        if (operationId == 0) {
            return type.read(bytes);
        }
        bytes.get();
        WriteBuffer uncommitted = new WriteBuffer().put((byte) (1 | 4)).putVarLong(operationId).put(bytes);
        return type.read(uncommitted.getBuffer().flip());
    }

    /** Writes a class name as H2's type registry stores one, and nothing after it. */
    private static final class ClassNames extends BasicDataType<String> {
        @Override
        public int getMemory(String name) {
            return 64;
        }

        @Override
        public void write(WriteBuffer buff, String name) {
            buff.putVarInt(name.length()).putStringData(name, name.length());
        }

        @Override
        public String read(ByteBuffer buff) {
            return DataUtils.readString(buff, DataUtils.readVarInt(buff));
        }

        @Override
        public String[] createStorage(int size) {
            return new String[size];
        }
    }

    /** Writes undo records as H2 does: map id, key, whether an old value follows, the old value. */
    private static final class UndoRecords extends BasicDataType<Object[]> {
        private final int mapId;
        private final DataType<VersionedValue<SearchRow>> rows;

        UndoRecords(int mapId, DataType<VersionedValue<SearchRow>> rows) {
            this.mapId = mapId;
            this.rows = rows;
        }

        @Override
        public int getMemory(Object[] record) {
            return 64;
        }

        @Override
        @SuppressWarnings("unchecked")
        public void write(WriteBuffer buff, Object[] record) {
            buff.putVarInt(mapId);
            LongDataType.INSTANCE.write(buff, (Long) record[0]);
            buff.put((byte) 1);
            rows.write(buff, (VersionedValue<SearchRow>) record[1]);
        }

        @Override
        public Object[] read(ByteBuffer buff) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Object[][] createStorage(int size) {
            return new Object[size][];
        }
    }

    /** Would say so if anything loaded it. */
    public static final class NeverLoaded {
        static {
            Loads.neverLoaded = true;
        }
    }

    /** What was loaded: a class of its own, so that reading it loads nothing else. */
    static final class Loads {
        static volatile boolean neverLoaded;
    }

    /** Would say so if anything deserialized it. */
    public static final class Gadget implements Serializable {
        private static final long serialVersionUID = 1L;
        static volatile boolean deserialized;

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            deserialized = true;
        }
    }
}
