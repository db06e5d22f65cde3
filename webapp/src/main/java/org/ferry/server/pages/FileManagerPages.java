package org.ferry.server.pages;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ferry.api.command.DeleteSubmission;
import org.ferry.api.command.TransferSubmission;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.FilterRules;
import org.ferry.api.error.FerryException;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.identity.Caller;
import org.ferry.api.service.ApiPaths;
import org.ferry.api.service.DeleteService;
import org.ferry.api.service.EndpointService;
import org.ferry.api.service.FileListings;
import org.ferry.api.service.FileOperationService;
import org.ferry.api.service.Labels;
import org.ferry.api.service.Submission;
import org.ferry.api.service.TransferService;
import org.ferry.mover.protocol.FileInfo;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The two-pane file manager ({@code /files}): an endpoint and a directory on each side; navigate,
 * select several entries, make a directory, rename, delete (a delete task), and transfer the
 * selection into the other side's directory with the task options.
 */
@Controller
public class FileManagerPages {

    private final EndpointService endpoints;
    private final FileOperationService files;
    private final TransferService transfers;
    private final DeleteService deletes;

    /**
     * @param endpoints the endpoint registry
     * @param files listings, mkdir, rename
     * @param transfers transfer submission
     * @param deletes delete submission
     */
    public FileManagerPages(
            EndpointService endpoints, FileOperationService files, TransferService transfers, DeleteService deletes) {
        this.endpoints = endpoints;
        this.files = files;
        this.transfers = transfers;
        this.deletes = deletes;
    }

    /** The home page is the file manager. */
    @GetMapping("/")
    public String home() {
        return "redirect:/files";
    }

    /** Both panes. */
    @GetMapping("/files")
    public String files(
            Caller caller,
            @RequestParam(name = "left", required = false) String left,
            @RequestParam(name = "lpath", required = false) String lpath,
            @RequestParam(name = "right", required = false) String right,
            @RequestParam(name = "rpath", required = false) String rpath,
            Model model) {
        model.addAttribute("endpoints", endpoints.search(caller, null, null, null));
        model.addAttribute("left", pane(caller, "left", left, lpath));
        model.addAttribute("right", pane(caller, "right", right, rpath));
        return "files";
    }

    private Pane pane(Caller caller, String side, String endpointId, String path) {
        if (endpointId == null || endpointId.isBlank()) {
            return new Pane(side, "", null, "/", null, List.of(), null);
        }
        Endpoint endpoint;
        try {
            endpoint = endpoints.resolve(caller, endpointId, "endpoint");
        } catch (FerryException e) {
            return new Pane(side, endpointId, null, "/", null, List.of(), e.getMessage());
        }
        String directory = path == null || path.isBlank()
                ? (endpoint.getDefaultDirectory() == null ? "/" : endpoint.getDefaultDirectory())
                : path;
        try {
            directory = ApiPaths.absolute("path", directory);
            List<FileInfo> entries =
                    FileListings.apply(files.list(caller.name(), endpoint, directory), false, List.of(), null);
            return new Pane(
                    side, endpoint.getId().toString(), endpoint, directory, Pane.parentOf(directory), entries, null);
        } catch (FerryException e) {
            return new Pane(
                    side,
                    endpoint.getId().toString(),
                    endpoint,
                    directory,
                    Pane.parentOf(directory),
                    List.of(),
                    e.getMessage());
        }
    }

    /** Makes a directory in one pane's directory. */
    @PostMapping("/files/mkdir")
    public String mkdir(
            Caller caller,
            @RequestParam("side") String side,
            @RequestParam("name") String name,
            @RequestParam(name = "left", required = false) String left,
            @RequestParam(name = "lpath", required = false) String lpath,
            @RequestParam(name = "right", required = false) String right,
            @RequestParam(name = "rpath", required = false) String rpath,
            RedirectAttributes redirect) {
        boolean onLeft = "left".equals(side);
        String directory = onLeft ? lpath : rpath;
        try {
            Endpoint endpoint = endpoints.resolve(caller, onLeft ? left : right, "endpoint");
            String path = ApiPaths.absolute("path", Pane.join(directory, checkName("name", name)));
            files.mkdir(caller.name(), endpoint, path);
            redirect.addFlashAttribute(
                    "notice", "Directory " + path + " was created on " + endpoint.getCanonicalName() + ".");
        } catch (FerryException e) {
            redirect.addFlashAttribute("error", e.getMessage());
        }
        return "redirect:" + url(left, lpath, right, rpath);
    }

    /** The main form's buttons: transfer, delete, rename. */
    @PostMapping("/files/action")
    public String action(Caller caller, @ModelAttribute FileAction form, RedirectAttributes redirect) {
        String action = form.action() == null ? "" : form.action();
        try {
            switch (action) {
                case "transfer-right" ->
                    transfer(
                            caller,
                            form,
                            form.left(),
                            form.lpath(),
                            form.leftSelected(),
                            form.right(),
                            form.rpath(),
                            redirect);
                case "transfer-left" ->
                    transfer(
                            caller,
                            form,
                            form.right(),
                            form.rpath(),
                            form.rightSelected(),
                            form.left(),
                            form.lpath(),
                            redirect);
                case "delete-left" -> delete(caller, form.left(), form.lpath(), form.leftSelected(), redirect);
                case "delete-right" -> delete(caller, form.right(), form.rpath(), form.rightSelected(), redirect);
                case "rename-left" ->
                    rename(caller, form.left(), form.lpath(), form.leftSelected(), form.leftNewName(), redirect);
                case "rename-right" ->
                    rename(caller, form.right(), form.rpath(), form.rightSelected(), form.rightNewName(), redirect);
                default -> redirect.addFlashAttribute("error", "Unknown action '" + action + "'");
            }
        } catch (FerryException e) {
            redirect.addFlashAttribute("error", e.getMessage());
        }
        return "redirect:" + url(form.left(), form.lpath(), form.right(), form.rpath());
    }

    private void transfer(
            Caller caller,
            FileAction form,
            String source,
            String sourceDirectory,
            List<String> selected,
            String destination,
            String destinationDirectory,
            RedirectAttributes redirect) {
        List<String> names = selection(selected, "Select the files and directories to transfer first.");
        if (destination == null || destination.isBlank()) {
            throw new InvalidRequestException("destination_endpoint", "Choose an endpoint on the other side first.");
        }
        List<TransferSubmission.Item> items = new ArrayList<>();
        for (String name : names) {
            boolean directory = name.endsWith("/");
            String bare = directory ? name.substring(0, name.length() - 1) : name;
            int index = items.size();
            items.add(new TransferSubmission.Item(
                    ApiPaths.absolute("DATA[" + index + "].source_path", Pane.join(sourceDirectory, bare)),
                    ApiPaths.absolute("DATA[" + index + "].destination_path", Pane.join(destinationDirectory, bare)),
                    directory));
        }
        TransferSubmission request = new TransferSubmission(
                null,
                source,
                destination,
                Labels.check(FormValues.blankToNull(form.label())),
                deadline(form.deadline(), form.tzOffsetMinutes()),
                items,
                new TransferSubmission.Options(
                        FormValues.syncLevel(form.syncLevel()),
                        checked(form.verifyChecksum()),
                        false,
                        checked(form.encrypt()),
                        false,
                        false,
                        FilterRules.none(),
                        false,
                        FormValues.checksumAlgorithm(form.checksumAlgorithm()),
                        false),
                // an unchecked box means no mail
                new TransferSubmission.Notify(
                        checked(form.notifySucceeded()), checked(form.notifyFailed()), checked(form.notifyInactive())),
                false,
                List.of());
        Submission submission = transfers.submit(caller, request);
        redirect.addFlashAttribute(
                "notice", "Transfer request submitted: " + items.size() + (items.size() == 1 ? " item." : " items."));
        redirect.addFlashAttribute("taskId", submission.taskId().toString());
    }

    private void delete(
            Caller caller, String endpoint, String directory, List<String> selected, RedirectAttributes redirect) {
        List<String> names = selection(selected, "Select the files and directories to delete first.");
        List<String> items = new ArrayList<>();
        boolean recursive = false;
        for (String name : names) {
            boolean isDirectory = name.endsWith("/");
            recursive |= isDirectory;
            String path = ApiPaths.absolute(
                    "DATA[" + items.size() + "].path",
                    Pane.join(directory, isDirectory ? name.substring(0, name.length() - 1) : name));
            if (path.equals("/")) {
                throw new InvalidRequestException("DATA", "The root cannot be deleted.");
            }
            items.add(path);
        }
        Submission submission = deletes.submit(
                caller, new DeleteSubmission(null, endpoint, null, null, items, recursive, false, false));
        redirect.addFlashAttribute(
                "notice", "Delete request submitted: " + items.size() + (items.size() == 1 ? " item." : " items."));
        redirect.addFlashAttribute("taskId", submission.taskId().toString());
    }

    private void rename(
            Caller caller,
            String endpointId,
            String directory,
            List<String> selected,
            String newName,
            RedirectAttributes redirect) {
        List<String> names = selection(selected, "Select the one entry to rename first.");
        if (names.size() != 1) {
            throw new InvalidRequestException("new_path", "Select exactly one entry to rename.");
        }
        String old = names.get(0).endsWith("/")
                ? names.get(0).substring(0, names.get(0).length() - 1)
                : names.get(0);
        Endpoint endpoint = endpoints.resolve(caller, endpointId, "endpoint");
        String oldPath = ApiPaths.absolute("old_path", Pane.join(directory, old));
        String newPath = ApiPaths.absolute("new_path", Pane.join(directory, checkName("new_path", newName)));
        files.rename(caller.name(), endpoint, oldPath, newPath);
        redirect.addFlashAttribute("notice", oldPath + " was renamed to " + newPath + ".");
    }

    private static List<String> selection(List<String> selected, String whenEmpty) {
        List<String> names = selected == null
                ? List.of()
                : selected.stream().filter(s -> s != null && !s.isBlank()).toList();
        if (names.isEmpty()) {
            throw new InvalidRequestException("DATA", whenEmpty);
        }
        return names;
    }

    /** A new entry's name: one path component. */
    private static String checkName(String field, String name) {
        if (name == null || name.isBlank()) {
            throw new InvalidRequestException(field, "Give a name first.");
        }
        String trimmed = name.trim();
        if (trimmed.contains("/") || trimmed.equals(".") || trimmed.equals("..")) {
            throw new InvalidRequestException(field, "A name is one path component: no '/', '.' or '..'.");
        }
        return trimmed;
    }

    /**
     * The deadline from the browser's local time and offset: a time to come (one that has passed
     * would only fail the task later).
     */
    static Instant deadline(String local, Integer tzOffsetMinutes) {
        if (local == null || local.isBlank()) {
            return null;
        }
        Instant deadline;
        try {
            LocalDateTime time = LocalDateTime.parse(local.trim());
            int offset = tzOffsetMinutes == null ? 0 : tzOffsetMinutes;
            deadline = time.plusMinutes(offset).atOffset(ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException e) {
            throw new InvalidRequestException("deadline", "deadline must be a date and time, e.g. 2030-01-31T18:00");
        }
        if (!deadline.isAfter(Instant.now())) {
            throw new InvalidRequestException(
                    "deadline", "The deadline has passed: give a time in the future, or none.");
        }
        return deadline;
    }

    /** A checkbox's value: true when checked, false when unchecked (the browser sent nothing). */
    private static boolean checked(Boolean box) {
        return Boolean.TRUE.equals(box);
    }

    /**
     * @return the file manager's address (without the context path) for both panes' state,
     *     every value percent-encoded
     */
    public static String url(String left, String lpath, String right, String rpath) {
        UriComponentsBuilder url = UriComponentsBuilder.fromPath("/files");
        Map<String, String> values = new HashMap<>();
        if (left != null && !left.isBlank()) {
            url.queryParam("left", "{left}").queryParam("lpath", "{lpath}");
            values.put("left", left);
            values.put("lpath", lpath == null || lpath.isBlank() ? "/" : lpath);
        }
        if (right != null && !right.isBlank()) {
            url.queryParam("right", "{right}").queryParam("rpath", "{rpath}");
            values.put("right", right);
            values.put("rpath", rpath == null || rpath.isBlank() ? "/" : rpath);
        }
        return url.encode().buildAndExpand(values).toUriString();
    }
}
