package dev.hexaflow.adapters.nodes.tool;

import java.time.DayOfWeek;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.time.temporal.IsoFields;
import java.util.Locale;
import java.util.Set;

/**
 * Python's {@code datetime.strftime} as Dify's time tools run it on Linux: glibc's directives in the C locale
 * (with glibc's {@code -}, {@code _}, {@code 0} and {@code ^} flags), Python's own {@code %f} and {@code %:z},
 * and {@code %Z} as the tz database abbreviates a zone ({@code UTC}, {@code EST}/{@code EDT}, {@code JST}, but
 * {@code +07} where the database has no letters). An unknown directive stays as written, as glibc leaves it.
 */
final class PythonStrftime {

    /**
     * The letter abbreviations the tz database uses. The JDK names zones from CLDR, which invents letters where
     * the database writes the offset (CLDR's "ICT" for Asia/Ho_Chi_Minh is "+07" to Python), so a JDK name is
     * kept only when the database writes it too.
     */
    private static final Set<String> TZDATA_LETTERS = Set.of("UTC", "GMT", "EST", "EDT", "CST", "CDT", "MST",
            "MDT", "PST", "PDT", "AKST", "AKDT", "HST", "HDT", "AST", "ADT", "NST", "NDT", "WET", "WEST", "CET",
            "CEST", "EET", "EEST", "MSK", "BST", "IST", "JST", "KST", "HKT", "PKT", "WIB", "WITA", "WIT", "AEST",
            "AEDT", "ACST", "ACDT", "AWST", "NZST", "NZDT", "CAT", "EAT", "WAT", "SAST", "IDT", "SST", "ChST", "MET",
            "MEST", "CHST", "CHDT");

    private static final DateTimeFormatter ZONE_NAME = DateTimeFormatter.ofPattern("zzz", Locale.US);

    private PythonStrftime() {
    }

    static String format(ZonedDateTime time, String format) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%' || i + 1 >= format.length()) {
                out.append(c);
                continue;
            }
            int start = i;
            char flag = 0;
            char next = format.charAt(i + 1);
            if ((next == '-' || next == '_' || next == '0' || next == '^' || next == '#')
                    && i + 2 < format.length()) {
                flag = next;
                i++;
            }
            char directive = format.charAt(++i);
            if (directive == ':' && i + 1 < format.length() && format.charAt(i + 1) == 'z') {
                i++;
                out.append(offset(time, true));
                continue;
            }
            String piece = directive(time, directive, flag);
            out.append(piece == null ? format.substring(start, i + 1) : piece);
        }
        return out.toString();
    }

    private static String directive(ZonedDateTime t, char directive, char flag) {
        return switch (directive) {
            case 'a' -> text(t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.US), flag);
            case 'A' -> text(t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.US), flag);
            case 'b', 'h' -> text(t.getMonth().getDisplayName(TextStyle.SHORT, Locale.US), flag);
            case 'B' -> text(t.getMonth().getDisplayName(TextStyle.FULL, Locale.US), flag);
            case 'c' -> format(t, "%a %b %e %H:%M:%S %Y");
            case 'C' -> number(t.getYear() / 100, 2, '0', flag);
            case 'd' -> number(t.getDayOfMonth(), 2, '0', flag);
            case 'D', 'x' -> format(t, "%m/%d/%y");
            case 'e' -> number(t.getDayOfMonth(), 2, ' ', flag);
            case 'F' -> format(t, "%Y-%m-%d");
            case 'G' -> number(t.get(IsoFields.WEEK_BASED_YEAR), 4, '0', flag);
            case 'g' -> number(t.get(IsoFields.WEEK_BASED_YEAR) % 100, 2, '0', flag);
            case 'H' -> number(t.getHour(), 2, '0', flag);
            case 'I' -> number(twelve(t), 2, '0', flag);
            case 'j' -> number(t.getDayOfYear(), 3, '0', flag);
            case 'k' -> number(t.getHour(), 2, ' ', flag);
            case 'l' -> number(twelve(t), 2, ' ', flag);
            case 'm' -> number(t.getMonthValue(), 2, '0', flag);
            case 'M' -> number(t.getMinute(), 2, '0', flag);
            case 'n' -> "\n";
            case 'p' -> text(t.getHour() < 12 ? "AM" : "PM", flag);
            case 'P' -> t.getHour() < 12 ? "am" : "pm";
            case 'r' -> format(t, "%I:%M:%S %p");
            case 'R' -> format(t, "%H:%M");
            case 's' -> Long.toString(t.toEpochSecond());
            case 'S' -> number(t.getSecond(), 2, '0', flag);
            case 't' -> "\t";
            case 'T', 'X' -> format(t, "%H:%M:%S");
            case 'u' -> Integer.toString(t.getDayOfWeek().getValue());
            case 'U' -> number((t.getDayOfYear() - 1 + 7 - sundayBased(t)) / 7, 2, '0', flag);
            case 'V' -> number(t.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR), 2, '0', flag);
            case 'w' -> Integer.toString(sundayBased(t));
            case 'W' -> number((t.getDayOfYear() - 1 + 7 - (t.getDayOfWeek().getValue() - 1)) / 7, 2, '0', flag);
            case 'y' -> number(t.getYear() % 100, 2, '0', flag);
            case 'Y' -> Integer.toString(t.getYear());
            case 'z' -> offset(t, false);
            case 'Z' -> text(abbreviation(t), flag);
            case 'f' -> String.format("%06d", t.getNano() / 1000);
            case '%' -> "%";
            default -> null;
        };
    }

    /** The zone's abbreviation as Python prints {@code %Z} for a ZoneInfo (or {@code datetime.UTC}) time. */
    static String abbreviation(ZonedDateTime t) {
        ZoneId zone = t.getZone();
        if (zone.equals(ZoneOffset.UTC) || zone.getId().equals("UTC") || zone.getId().equals("Etc/UTC")) {
            return "UTC";
        }
        String name = ZONE_NAME.format(t);
        if (TZDATA_LETTERS.contains(name)) {
            return name;
        }
        int seconds = t.getOffset().getTotalSeconds();
        String sign = seconds < 0 ? "-" : "+";
        int minutes = Math.abs(seconds) / 60;
        return minutes % 60 == 0 ? String.format("%s%02d", sign, minutes / 60)
                : String.format("%s%02d%02d", sign, minutes / 60, minutes % 60);
    }

    private static String offset(ZonedDateTime t, boolean colon) {
        int seconds = t.getOffset().getTotalSeconds();
        String sign = seconds < 0 ? "-" : "+";
        int abs = Math.abs(seconds);
        String hours = String.format("%02d", abs / 3600);
        String minutes = String.format("%02d", abs % 3600 / 60);
        String rest = abs % 60 == 0 ? "" : (colon ? ":" : "") + String.format("%02d", abs % 60);
        return sign + hours + (colon ? ":" : "") + minutes + rest;
    }

    private static int twelve(ZonedDateTime t) {
        int hour = t.getHour() % 12;
        return hour == 0 ? 12 : hour;
    }

    private static int sundayBased(ZonedDateTime t) {
        return t.getDayOfWeek() == DayOfWeek.SUNDAY ? 0 : t.getDayOfWeek().getValue();
    }

    private static String number(int value, int width, char pad, char flag) {
        String digits = Integer.toString(value);
        if (flag == '-') {
            return digits;
        }
        char padding = flag == '_' ? ' ' : flag == '0' ? '0' : pad;
        StringBuilder out = new StringBuilder();
        for (int i = digits.length(); i < width; i++) {
            out.append(padding);
        }
        return out.append(digits).toString();
    }

    private static String text(String value, char flag) {
        return flag == '^' ? value.toUpperCase(Locale.ROOT) : value;
    }
}
