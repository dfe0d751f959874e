package dev.hexaflow.adapters.persistence;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import javax.sql.DataSource;

/**
 * PostgreSQL's text holds no NUL character (U+0000), which H2's does and which a client may send in any field (a
 * user id, a query, a file name): a statement given one fails whole. Through this data source each NUL of a string
 * parameter is written as U+FFFD, the replacement character, so that such a request is kept (as it would be on
 * H2, one character changed) instead of failing. A lookup by the same text is changed the same way, and finds it.
 */
final class NulFreeText {

    private static final char NUL = '\u0000';
    private static final char REPLACEMENT = '\uFFFD';

    private NulFreeText() {
    }

    /** {@code text} with each NUL written as U+FFFD, as PostgreSQL takes it. */
    static String of(String text) {
        return text.indexOf(NUL) < 0 ? text : text.replace(NUL, REPLACEMENT);
    }

    /** {@code pool}, whose connections' prepared statements replace NUL in their string parameters. */
    static DataSource over(DataSource pool) {
        return proxy(DataSource.class, pool, (method, result) -> method.getName().equals("getConnection")
                ? proxy(Connection.class, (Connection) result, NulFreeText::statement) : result);
    }

    private static Object statement(Method method, Object result) {
        if (result instanceof CallableStatement call) {
            return proxy(CallableStatement.class, call, (m, r) -> r, true);
        }
        if (result instanceof PreparedStatement prepared) {
            return proxy(PreparedStatement.class, prepared, (m, r) -> r, true);
        }
        return result;
    }

    @FunctionalInterface
    private interface Wrap {
        Object apply(Method method, Object result);
    }

    private static <T> T proxy(Class<T> type, T target, Wrap wrap) {
        return proxy(type, target, wrap, false);
    }

    private static <T> T proxy(Class<T> type, T target, Wrap wrap, boolean replaceText) {
        InvocationHandler handler = (self, method, args) -> {
            if (replaceText && args != null && args.length >= 2 && args[1] instanceof String text
                    && method.getName().startsWith("set")) {
                args[1] = of(text);
            }
            try {
                return wrap.apply(method, method.invoke(target, args));
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return type.cast(Proxy.newProxyInstance(NulFreeText.class.getClassLoader(), new Class<?>[] {type}, handler));
    }
}
