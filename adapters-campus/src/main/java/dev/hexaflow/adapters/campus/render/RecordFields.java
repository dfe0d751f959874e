package dev.hexaflow.adapters.campus.render;

import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.Holiday;
import dev.hexaflow.domain.campus.Printer;
import dev.hexaflow.domain.campus.Tutor;
import java.util.ArrayList;
import java.util.List;

/**
 * The wire fields of each record, in the feed's order and with its names; a value is a String, an Integer or
 * null. The JSON and XML writers share it so that both formats always carry the same fields.
 */
final class RecordFields {

    record Field(String name, Object value) {
    }

    private RecordFields() {
    }

    static List<Field> of(CampusRecord record) {
        List<Field> fields = new ArrayList<>(7);
        if (record instanceof Tutor t) {
            fields.add(new Field("subject", t.subject()));
            fields.add(new Field("catalog_number", t.catalogNumber()));
            fields.add(new Field("title", t.title()));
            fields.add(new Field("tutors_count", t.tutorsCount()));
            fields.add(new Field("contact_url", t.contactUrl()));
        } else if (record instanceof Printer p) {
            fields.add(new Field("printer", p.printer()));
            fields.add(new Field("ad", p.ad()));
            fields.add(new Field("server", p.server()));
            fields.add(new Field("comment", p.comment()));
            fields.add(new Field("driver", p.driver()));
            fields.add(new Field("room", p.room()));
            fields.add(new Field("faculty", p.faculty()));
        } else if (record instanceof Holiday h) {
            fields.add(new Field("name", h.name()));
            fields.add(new Field("date", h.date() == null ? null : h.date().toString()));
        }
        return fields;
    }
}
