package dev.hexaflow.adapters.nodes.template;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.filter.Filter;
import java.util.regex.Pattern;

/**
 * Jinja2's {@code striptags} (markupsafe's): comments and tags removed, whitespace collapsed, entities unescaped.
 * Jinjava's own filter first renders its value as a template, which would run an input's {@code {{ }}}.
 */
final class Jinja2StripTagsFilter implements Filter {

    private static final Pattern COMMENTS = Pattern.compile("<!--.*?-->", Pattern.DOTALL);
    private static final Pattern TAGS = Pattern.compile("<.*?>", Pattern.DOTALL);
    private static final Pattern WHITESPACE = Pattern.compile("\\s+", Pattern.UNICODE_CHARACTER_CLASS);

    @Override
    public String getName() {
        return "striptags";
    }

    @Override
    public Object filter(Object value, JinjavaInterpreter interpreter, String... args) {
        if (value == null) {
            return null;
        }
        String text = TAGS.matcher(COMMENTS.matcher(interpreter.getAsString(value)).replaceAll("")).replaceAll("");
        text = WHITESPACE.matcher(text.strip()).replaceAll(" ");
        // the HTML unescaping of the jsoup that Jinjava bundles, as Python's html.unescape does
        return jinjava.org.jsoup.parser.Parser.unescapeEntities(text, false);
    }
}
