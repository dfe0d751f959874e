package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/** hexaflow-bom has no parent, so that importing it brings nothing of the build: it must say what the parent says. */
class BomTest {

    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();

    @Test
    void theBomHasTheParentsVersionAndEveryVersionPropertyAsTheParentSetsIt() throws Exception {
        Document parent = read(ROOT.resolve("pom.xml"));
        Document bom = read(ROOT.resolve("bom/pom.xml"));

        assertThat(child(bom.getDocumentElement(), "version")).isEqualTo(child(parent.getDocumentElement(), "version"));
        Element properties = (Element) bom.getElementsByTagName("properties").item(0);
        List<String> names = new ArrayList<>();
        for (Node node = properties.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element property) {
                names.add(property.getTagName());
                assertThat(property.getTextContent()).as(property.getTagName())
                        .isEqualTo(child((Element) parent.getElementsByTagName("properties").item(0),
                                property.getTagName()));
            }
        }
        assertThat(names).contains("jackson.version", "jinjava.version", "graaljs.version", "pdfbox.version");
    }

    @Test
    void theBomManagesEveryModuleOfTheBuild() throws Exception {
        Document parent = read(ROOT.resolve("pom.xml"));
        String bom = Files.readString(ROOT.resolve("bom/pom.xml"));

        Element modules = (Element) parent.getElementsByTagName("modules").item(0);
        List<String> artifacts = new ArrayList<>();
        for (Node node = modules.getFirstChild(); node != null; node = node.getNextSibling()) {
            // application-tests holds test sources only and is never published.
            if (node instanceof Element module && !module.getTextContent().equals("bom")
                    && !module.getTextContent().equals("application-tests")) {
                artifacts.add(child(read(ROOT.resolve(module.getTextContent()).resolve("pom.xml"))
                        .getDocumentElement(), "artifactId"));
            }
        }

        assertThat(artifacts).contains("hexaflow-domain", "hexaflow-engine", "hexaflow-app");
        for (String artifact : artifacts) {
            assertThat(bom).as("hexaflow-bom manages " + artifact)
                    .contains("<artifactId>" + artifact + "</artifactId>");
        }
    }

    private static Document read(Path pom) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
    }

    /** The text of a direct child element, not of one nested deeper (a parent's or a dependency's version). */
    private static String child(Element element, String name) {
        for (Node node = element.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element child && child.getTagName().equals(name)) {
                return child.getTextContent().strip();
            }
        }
        throw new AssertionError("no <" + name + "> in <" + element.getTagName() + ">");
    }
}
