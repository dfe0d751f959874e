package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.campus.port.out.CampusDataRepository;
import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.Holiday;
import dev.hexaflow.domain.campus.Printer;
import dev.hexaflow.domain.campus.Tutor;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.PreparedBatch;

/** The three campus data sets, one table each, kept in load order by {@code seq}. */
public final class JdbiCampusDataRepository implements CampusDataRepository {

    private final Jdbi jdbi;

    public JdbiCampusDataRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public List<CampusRecord> findAll(FeedMethod dataSet) {
        return jdbi.withHandle(handle -> handle
                .createQuery("SELECT * FROM " + table(dataSet) + " ORDER BY seq")
                .map((rs, ctx) -> read(dataSet, rs))
                .list());
    }

    @Override
    public int count(FeedMethod dataSet) {
        return jdbi.withHandle(handle -> handle
                .createQuery("SELECT COUNT(*) FROM " + table(dataSet))
                .mapTo(Integer.class)
                .one());
    }

    @Override
    public void replaceAll(FeedMethod dataSet, List<? extends CampusRecord> records) {
        jdbi.useTransaction(handle -> {
            handle.execute("DELETE FROM " + table(dataSet));
            if (!records.isEmpty()) {
                insertAll(handle, dataSet, records);
            }
        });
    }

    private static void insertAll(Handle handle, FeedMethod dataSet, List<? extends CampusRecord> records) {
        PreparedBatch batch = handle.prepareBatch(switch (dataSet) {
            case TUTORS -> "INSERT INTO campus_tutor (seq, subject, catalog_number, title, tutors_count, contact_url) "
                    + "VALUES (:seq, :subject, :catalog_number, :title, :tutors_count, :contact_url)";
            case PRINTERS -> "INSERT INTO campus_printer (seq, printer, ad, server, printer_comment, driver, room, faculty) "
                    + "VALUES (:seq, :printer, :ad, :server, :comment, :driver, :room, :faculty)";
            case HOLIDAYS -> "INSERT INTO campus_holiday (seq, name, holiday_date) VALUES (:seq, :name, :date)";
        });
        int seq = 0;
        for (CampusRecord record : records) {
            batch.bind("seq", seq++);
            switch (dataSet) {
                case TUTORS -> {
                    Tutor tutor = (Tutor) record;
                    batch.bind("subject", tutor.subject())
                            .bind("catalog_number", tutor.catalogNumber())
                            .bind("title", tutor.title())
                            .bindByType("tutors_count", tutor.tutorsCount(), Integer.class)
                            .bind("contact_url", tutor.contactUrl());
                }
                case PRINTERS -> {
                    Printer printer = (Printer) record;
                    batch.bind("printer", printer.printer())
                            .bind("ad", printer.ad())
                            .bind("server", printer.server())
                            .bind("comment", printer.comment())
                            .bind("driver", printer.driver())
                            .bind("room", printer.room())
                            .bind("faculty", printer.faculty());
                }
                case HOLIDAYS -> {
                    Holiday holiday = (Holiday) record;
                    batch.bind("name", holiday.name())
                            .bindByType("date", holiday.date(), LocalDate.class);
                }
            }
            batch.add();
        }
        batch.execute();
    }

    private static CampusRecord read(FeedMethod dataSet, ResultSet rs) throws SQLException {
        return switch (dataSet) {
            case TUTORS -> new Tutor(rs.getString("subject"), rs.getString("catalog_number"), rs.getString("title"),
                    rs.getObject("tutors_count", Integer.class), rs.getString("contact_url"));
            case PRINTERS -> new Printer(rs.getString("printer"), rs.getString("ad"), rs.getString("server"),
                    rs.getString("printer_comment"), rs.getString("driver"), rs.getString("room"),
                    rs.getString("faculty"));
            case HOLIDAYS -> new Holiday(rs.getString("name"), rs.getObject("holiday_date", LocalDate.class));
        };
    }

    private static String table(FeedMethod dataSet) {
        return switch (dataSet) {
            case TUTORS -> "campus_tutor";
            case PRINTERS -> "campus_printer";
            case HOLIDAYS -> "campus_holiday";
        };
    }
}
