package dev.hexaflow.adapters.campus.render;

import com.fasterxml.jackson.dataformat.xml.XmlFactory;
import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.FeedMeta;
import java.io.ByteArrayOutputStream;
import java.util.List;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Writes the parts of {@code <response><meta>…</meta><data><item>…</item>…</data></response>}: the meta elements
 * in the JSON order, one {@code item} element per record with one child per field, a null as an empty element. The real
 * feed documented the root and meta; the per-record element name follows the common PHP array-to-XML form.
 */
final class JacksonXmlFeedWriter {

    private final XMLOutputFactory output = new XmlFactory().getXMLOutputFactory();

    /** The {@code <meta>} element, on its own. */
    byte[] meta(FeedMeta meta) {
        return fragment(xml -> writeMeta(xml, meta), 320);
    }

    /** The {@code <data>} element with one {@code <item>} per record, on its own. */
    byte[] data(List<? extends CampusRecord> records) {
        return fragment(xml -> {
            xml.writeStartElement("data");
            for (CampusRecord record : records) {
                xml.writeStartElement("item");
                for (RecordFields.Field field : RecordFields.of(record)) {
                    element(xml, field.name(), field.value() == null ? null : field.value().toString());
                }
                xml.writeEndElement();
            }
            xml.writeEndElement();
        }, 16 + records.size() * 160);
    }

    private interface Fragment {
        void writeTo(XMLStreamWriter xml) throws XMLStreamException;
    }

    private byte[] fragment(Fragment fragment, int sizeHint) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(sizeHint);
        try {
            XMLStreamWriter xml = output.createXMLStreamWriter(out, "UTF-8");
            fragment.writeTo(xml);
            xml.flush();
            xml.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("writing XML to memory failed", e);
        }
        return out.toByteArray();
    }

    private static void writeMeta(XMLStreamWriter xml, FeedMeta meta) throws XMLStreamException {
        xml.writeStartElement("meta");
        element(xml, "requests", Long.toString(meta.requests()));
        element(xml, "timestamp", Long.toString(meta.timestamp()));
        element(xml, "status", Integer.toString(meta.status().code()));
        element(xml, "message", meta.status().message());
        element(xml, "method_id", meta.methodId().map(String::valueOf).orElse(null));
        if (meta.version().isPresent()) {
            element(xml, "version", meta.version().get().toString());
        }
        element(xml, "method", null);
        xml.writeEndElement();
    }

    private static void element(XMLStreamWriter xml, String name, String text) throws XMLStreamException {
        xml.writeStartElement(name);
        if (text != null) {
            xml.writeCharacters(text);
        } else {
            // An empty text keeps the element as <name></name>, the form the real feed used for empty values.
            xml.writeCharacters("");
        }
        xml.writeEndElement();
    }
}
