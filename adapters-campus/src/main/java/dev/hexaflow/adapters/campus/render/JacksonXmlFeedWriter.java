package dev.hexaflow.adapters.campus.render;

import com.fasterxml.jackson.dataformat.xml.XmlFactory;
import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.FeedEnvelope;
import dev.hexaflow.domain.campus.FeedMeta;
import java.io.ByteArrayOutputStream;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Writes {@code <response><meta>…</meta><data><item>…</item>…</data></response>}: the meta elements in the JSON
 * order, one {@code item} element per record with one child per field, a null as an empty element. The real
 * feed documented the root and meta; the per-record element name follows the common PHP array-to-XML form.
 */
final class JacksonXmlFeedWriter {

    private final XMLOutputFactory output = new XmlFactory().getXMLOutputFactory();

    byte[] write(FeedEnvelope envelope) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256 + envelope.data().size() * 160);
        try {
            XMLStreamWriter xml = output.createXMLStreamWriter(out, "UTF-8");
            xml.writeStartDocument("UTF-8", "1.0");
            xml.writeStartElement("response");
            writeMeta(xml, envelope.meta());
            xml.writeStartElement("data");
            for (CampusRecord record : envelope.data()) {
                xml.writeStartElement("item");
                for (RecordFields.Field field : RecordFields.of(record)) {
                    element(xml, field.name(), field.value() == null ? null : field.value().toString());
                }
                xml.writeEndElement();
            }
            xml.writeEndElement();
            xml.writeEndElement();
            xml.writeEndDocument();
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
