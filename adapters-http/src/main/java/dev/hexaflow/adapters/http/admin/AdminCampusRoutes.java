package dev.hexaflow.adapters.http.admin;

import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.support.HttpRefusal;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.application.campus.port.in.BanCampusKeyUseCase;
import dev.hexaflow.application.campus.port.in.ImportCampusDataCommand;
import dev.hexaflow.application.campus.port.in.ImportCampusDataUseCase;
import dev.hexaflow.application.campus.port.in.IssueCampusKeyUseCase;
import dev.hexaflow.domain.campus.DataFileFormat;
import dev.hexaflow.domain.campus.DataSetTooLargeException;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.InvalidCampusDataException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Campus administration: issue and ban keys, replace a data set from a CSV or JSON body. */
public final class AdminCampusRoutes implements RouteGroup {

    private final AdminAuthorization admin;
    private final IssueCampusKeyUseCase issueKey;
    private final BanCampusKeyUseCase banKey;
    private final ImportCampusDataUseCase importData;

    public AdminCampusRoutes(AdminAuthorization admin, IssueCampusKeyUseCase issueKey, BanCampusKeyUseCase banKey,
            ImportCampusDataUseCase importData) {
        this.admin = admin;
        this.issueKey = issueKey;
        this.banKey = banKey;
        this.importData = importData;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.post("/admin/campus/keys", admin.require(this::issue));
        routes.post("/admin/campus/keys/{key}/ban", admin.require(this::ban));
        routes.put("/admin/campus/{dataSet}", admin.require(this::replace));
    }

    private void issue(Context ctx) {
        ctx.status(201).contentType("application/json").result(JsonResponses.json(Map.of("key", issueKey.issue())));
    }

    private void ban(Context ctx) {
        try {
            banKey.ban(ctx.pathParam("key"));
            ctx.contentType("application/json").result("{\"result\":\"success\"}");
        } catch (BanCampusKeyUseCase.UnknownCampusKeyException e) {
            throw HttpRefusal.notFound("No campus key like that was issued.");
        }
    }

    private void replace(Context ctx) {
        Optional<FeedMethod> dataSet = FeedMethod.ofDataSet(ctx.pathParam("dataSet"));
        if (dataSet.isEmpty()) {
            throw HttpRefusal.notFound("No campus data set '" + ctx.pathParam("dataSet")
                    + "'; the data sets are tutors, printers and holidays.");
        }
        byte[] body = ctx.bodyAsBytes();
        Optional<DataFileFormat> format = format(ctx.contentType(), body);
        if (format.isEmpty()) {
            throw new HttpRefusal(415, "unsupported_media_type",
                    "Send the data as text/csv (a header row of field names) or application/json (an array).");
        }
        try {
            int records = importData.importData(ImportCampusDataCommand.replace(dataSet.get(), format.get(), body));
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("data_set", dataSet.get().resource());
            answer.put("records", records);
            ctx.contentType("application/json").result(JsonResponses.json(answer));
        } catch (DataSetTooLargeException e) {
            throw new HttpRefusal(413, "data_set_too_large", "The " + dataSet.get().resource() + " data set "
                    + "was refused: " + e.getMessage() + ". Nothing was changed.");
        } catch (InvalidCampusDataException e) {
            Map<String, Object> where = new LinkedHashMap<>();
            where.put("line", e.line());
            where.put("field", e.field());
            throw new HttpRefusal(400, "invalid_campus_data", e.getMessage() + ". Nothing was changed.", where);
        }
    }

    /** The file layout, by content type, or by the first character when the type says nothing. */
    private static Optional<DataFileFormat> format(String contentType, byte[] body) {
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT).split(";", 2)[0].trim();
        switch (type) {
            case "text/csv":
                return Optional.of(DataFileFormat.CSV);
            case "application/json":
                return Optional.of(DataFileFormat.JSON);
            case "", "text/plain", "application/octet-stream", "application/x-www-form-urlencoded":
                for (byte b : body) {
                    if (!Character.isWhitespace(b)) {
                        return Optional.of(b == '[' ? DataFileFormat.JSON : DataFileFormat.CSV);
                    }
                }
                return Optional.of(DataFileFormat.CSV);
            default:
                return Optional.empty();
        }
    }
}
