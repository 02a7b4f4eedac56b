"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const ended = new Set(["succeeded", "failed", "cancelled", "interrupted"]);
  const state = { me: null, voices: [], job: null, run: null, events: null, outputsKey: null, announced: null,
                  settings: null, booksTimer: null, busy: false };

  /** An error answer of the API: its message, and the request's field it is about. */
  class ApiError extends Error {
    constructor(status, message, field) {
      super(message);
      this.status = status;
      this.field = field || "";
    }
  }

  async function api(method, path, body) {
    const init = { method, headers: {}, credentials: "same-origin" };
    if (method !== "GET" && method !== "HEAD") init.headers["X-Lectern-Request"] = "1";
    if (body instanceof FormData) {
      init.body = body;
    } else if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (error) {
      throw new ApiError(0, "The service cannot be reached (" + error.message + "): check the connection and try again.", "");
    }
    if (response.status === 204) return null;
    const text = await response.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch (_) { data = null; }
    if (!response.ok) {
      const detail = data && data.error ? data.error : {};
      const error = new ApiError(response.status, detail.message || ("The service answered " + response.status + " " + response.statusText + "."), detail.field);
      if (response.status === 401 && path !== "/api/v1/session" && state.me) signedOut("Your session has ended: sign in again.");
      throw error;
    }
    return data;
  }

  /** A form sent with the upload's progress told to `progress` (0…1), as `api` sends it. */
  function upload(path, data, progress) {
    return new Promise((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open("POST", path);
      request.setRequestHeader("X-Lectern-Request", "1");
      request.upload.addEventListener("progress", (event) => { if (event.lengthComputable) progress(event.loaded / event.total); });
      request.addEventListener("load", () => {
        let body = null;
        try { body = JSON.parse(request.responseText); } catch (_) { body = null; }
        if (request.status >= 200 && request.status < 300) return resolve(body);
        const detail = body && body.error ? body.error : {};
        if (request.status === 401 && state.me) signedOut("Your session has ended: sign in again.");
        reject(new ApiError(request.status, detail.message || ("The service answered " + request.status + "."), detail.field));
      });
      request.addEventListener("error", () => reject(new ApiError(0, "The upload failed: the service cannot be reached. Check the connection and try again.", "")));
      request.send(data);
    });
  }

  // Messages: near the field an error names, else the form's own line; all are live regions.

  function notice(text) {
    $("notice").textContent = text;
  }

  function clearErrors(scope) {
    for (const slot of scope.querySelectorAll(".error")) slot.textContent = "";
    for (const input of scope.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
  }

  function slotFor(scope, field) {
    const slots = [...scope.querySelectorAll(".error[data-field]")];
    let name = field || "";
    while (name) {
      const slot = slots.find((s) => s.dataset.field.split(" ").includes(name));
      if (slot) return slot;
      name = name.includes(".") ? name.slice(0, name.lastIndexOf(".")) : "";
    }
    return null;
  }

  function showError(scope, error, fallbackId, focus = true) {
    const slot = slotFor(scope, error.field) || $(fallbackId);
    slot.textContent = error.message;
    const holder = slot.closest(".field, .drop-zone");
    const input = holder && holder.querySelector("input, select");
    if (input) {
      input.setAttribute("aria-invalid", "true");
      if (focus) input.focus();
    }
  }

  // Words for numbers.

  function percent(fraction) {
    return Math.floor((fraction || 0) * 100) + " %";
  }

  function duration(seconds) {
    const s = Math.max(0, Math.round(seconds || 0));
    if (s < 60) return s + " s";
    if (s < 3600) return Math.floor(s / 60) + " min" + (s % 60 ? " " + (s % 60) + " s" : "");
    return Math.floor(s / 3600) + " h " + Math.round((s % 3600) / 60) + " min";
  }

  function size(bytes) {
    if (bytes < 1000) return bytes + (bytes === 1 ? " byte" : " bytes");
    if (bytes < 1e6) return (bytes / 1e3).toFixed(1) + " kB";
    if (bytes < 1e9) return (bytes / 1e6).toFixed(1) + " MB";
    return (bytes / 1e9).toFixed(2) + " GB";
  }

  function count(n, one, many) {
    return n + " " + (n === 1 ? one : many);
  }

  function when(iso) {
    const date = new Date(iso);
    return isNaN(date) ? "" : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  }

  const kinds = {
    "audio/mpeg": "MP3 audio", "audio/mp4": "M4B audiobook", "audio/ogg": "Opus audio", "text/html": "read-along page",
    "text/vtt": "WebVTT captions", "application/json": "JSON", "application/x-subrip": "SubRip captions",
    "application/epub+zip": "EPUB", "text/plain": "text", "application/zip": "ZIP archive",
  };

  function element(tag, className, text) {
    const el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  }

  // Views.

  function showView(name) {
    $("loading").hidden = true;
    $("sign-in-view").hidden = name !== "sign-in";
    $("books-view").hidden = name !== "books";
    $("book-view").hidden = name !== "book";
    $("account").hidden = name === "sign-in";
    if (name !== "books") clearInterval(state.booksTimer);
  }

  function route(focus) {
    closeEvents();
    if (!state.me) return;
    const match = location.hash.match(/^#jobs\/([0-9]+)$/);
    if (match) showBook(Number(match[1]), focus);
    else showBooks(focus);
  }

  function signedOut(message) {
    state.me = null;
    state.job = null;
    closeEvents();
    showView("sign-in");
    document.title = "Sign in — Lectern";
    notice(message || "");
    $("sign-in-heading").focus();
  }

  async function boot() {
    setUpForms();
    try {
      state.me = await api("GET", "/api/v1/me");
    } catch (error) {
      if (error.status === 401) {
        showView("sign-in");
        document.title = "Sign in — Lectern";
        return;
      }
      $("loading").textContent = error.message;
      return;
    }
    await enter(false);
  }

  async function enter(focus) {
    $("who").textContent = "Signed in as " + state.me.owner + (state.me.admin ? " (admin: every book)" : "");
    loadVoices();
    route(focus);
  }

  // Signing in and out.

  async function signIn(event) {
    event.preventDefault();
    const form = $("sign-in-form");
    clearErrors(form);
    const token = $("token").value.trim();
    if (!token) {
      showError(form, { field: "token", message: "Enter your API token." }, "sign-in-error");
      return;
    }
    try {
      state.me = await api("POST", "/api/v1/session", { token });
    } catch (error) {
      showError(form, error, "sign-in-error");
      return;
    }
    $("token").value = "";
    notice("Signed in as " + state.me.owner + ".");
    await enter(true);
  }

  async function signOut() {
    try { await api("DELETE", "/api/v1/session"); } catch (_) { /* signed out below all the same */ }
    signedOut("Signed out.");
  }

  // Voices.

  async function loadVoices() {
    try {
      state.voices = await api("GET", "/api/v1/voices");
    } catch (error) {
      state.voices = [];
      notice("The voices cannot be listed: " + error.message);
    }
    for (const select of document.querySelectorAll(".voice-select")) fillVoices(select, select.dataset.current || select.value);
  }

  function voiceLabel(voice) {
    const gender = voice.gender && voice.gender !== "unspecified" ? ", " + voice.gender : "";
    return voice.name.replace(/_/g, " ") + " — " + (voice.languages || []).join(", ") + gender;
  }

  function fillVoices(select, current) {
    select.replaceChildren(new Option("The default voice for the book's language", ""));
    const engines = new Map();
    for (const voice of state.voices) {
      if (!engines.has(voice.engine)) engines.set(voice.engine, []);
      engines.get(voice.engine).push(voice);
    }
    for (const [engine, voices] of engines) {
      const group = document.createElement("optgroup");
      group.label = engine === "piper" ? "Piper (neural) voices" : engine + " voices";
      voices.sort((a, b) => voiceLabel(a).localeCompare(voiceLabel(b)));
      for (const voice of voices) group.append(new Option(voiceLabel(voice), voice.name));
      select.append(group);
    }
    if (current && !state.voices.some((v) => v.name === current)) select.append(new Option(current + " (as the manifest says)", current));
    select.value = current || "";
  }

  async function hear(button) {
    const select = $(button.dataset.voiceSelect), audio = $(button.dataset.sample);
    const scope = select.closest(".field");
    clearErrors(scope);
    const voice = state.voices.find((v) => v.name === select.value);
    if (!voice) {
      showError(scope, { field: "voice", message: "Choose a voice in the list to hear it." }, select.id + "-error", false);
      return;
    }
    if (button.getAttribute("aria-busy") === "true") return;
    button.setAttribute("aria-busy", "true");
    button.textContent = "Preparing the sample…";
    try {
      const response = await fetch(voice.audition, { credentials: "same-origin" });
      if (!response.ok) {
        let message = "The sample cannot be made (" + response.status + ").";
        try { message = (await response.json()).error.message; } catch (_) { /* the status says enough */ }
        throw new ApiError(response.status, message, "voice");
      }
      const blob = await response.blob();
      if (audio.src.startsWith("blob:")) URL.revokeObjectURL(audio.src);
      audio.src = URL.createObjectURL(blob);
      audio.dataset.voice = voice.name;
      audio.hidden = false;
      try {
        await audio.play();
        notice("Playing a sample of " + voice.name.replace(/_/g, " ") + ".");
      } catch (_) {
        notice("The sample of " + voice.name.replace(/_/g, " ") + " is ready: play it with the player below the list.");
      }
    } catch (error) {
      showError(scope, error, select.id + "-error", false);
    } finally {
      button.removeAttribute("aria-busy");
      button.textContent = "Hear this voice";
    }
  }

  function describeRate(input) {
    const value = Number(input.value);
    const words = value < 0.35 ? "slow" : value < 0.45 ? "a little slow" : value <= 0.55 ? "the usual pace" : value <= 0.7 ? "a little fast" : "fast";
    const text = value.toFixed(2) + " (" + words + ")";
    $(input.id + "-value").textContent = text;
    input.setAttribute("aria-valuetext", text);
  }

  // Adding a book.

  function describeChosen() {
    const files = [...$("document").files];
    $("chosen").textContent = files.length
      ? "Chosen: " + files.map((f) => f.name + " (" + size(f.size) + ")").join(", ") + "."
      : "No file chosen yet.";
  }

  async function addBook(event) {
    event.preventDefault();
    const form = $("new-book-form");
    if (state.busy) return;
    clearErrors(form);
    const files = [...$("document").files];
    if (!files.length) {
      showError(form, { field: "document", message: "Choose the book's file first." }, "new-book-error");
      return;
    }
    const data = new FormData();
    for (const file of files) data.append("document", file, file.name);
    for (const [field, id] of [["title", "new-title"], ["author", "new-author"], ["voice", "new-voice"]]) {
      const value = $(id).value.trim();
      if (value) data.append(field, value);
    }
    if ($("new-rate").dataset.touched) data.append("rate", $("new-rate").value);
    const submit = form.querySelector("button[type=submit]");
    state.busy = true;
    submit.setAttribute("aria-busy", "true");
    submit.textContent = "Adding the book…";
    const names = files.map((f) => f.name).join(", ");
    const bar = $("upload-progress");
    bar.value = 0;
    bar.hidden = false;
    let told = -1;
    notice("Uploading " + names + "…");
    try {
      const job = await upload("/api/v1/jobs", data, (fraction) => {
        bar.value = fraction;
        const tenth = Math.floor(fraction * 10);
        if (tenth !== told && fraction < 1) notice("Uploading " + names + ": " + percent(fraction) + "…");
        if (fraction >= 1) notice("Uploaded " + names + ": reading the book…");
        told = tenth;
      });
      form.reset();
      delete $("new-rate").dataset.touched;
      describeRate($("new-rate"));
      describeChosen();
      notice("Added “" + (job.title || job.name) + "”.");
      location.hash = "#jobs/" + job.id;
    } catch (error) {
      notice("");
      showError(form, error, "new-book-error");
    } finally {
      bar.hidden = true;
      state.busy = false;
      submit.removeAttribute("aria-busy");
      submit.textContent = "Add the book";
    }
  }

  function setUpDropZone() {
    const zone = $("drop-zone"), input = $("document");
    // A file dropped beside the zone must not replace the page with it.
    for (const type of ["dragover", "drop"]) window.addEventListener(type, (event) => event.preventDefault());
    zone.addEventListener("dragenter", (event) => { event.preventDefault(); zone.classList.add("dragging"); });
    zone.addEventListener("dragover", (event) => { event.preventDefault(); event.dataTransfer.dropEffect = "copy"; zone.classList.add("dragging"); });
    zone.addEventListener("dragleave", (event) => { if (!zone.contains(event.relatedTarget)) zone.classList.remove("dragging"); });
    zone.addEventListener("drop", (event) => {
      event.preventDefault();
      zone.classList.remove("dragging");
      if (!event.dataTransfer.files.length) return;
      input.files = event.dataTransfer.files;
      input.dispatchEvent(new Event("change", { bubbles: true }));
      input.focus();
    });
    input.addEventListener("change", () => {
      clearErrors(zone);
      describeChosen();
    });
  }

  // The list of books.

  function describeJob(job) {
    const run = job.latestRun;
    if (job.queued) return "waiting for its turn";
    if (job.manifestError) return "cannot be narrated: " + job.manifestError;
    if (!run) return "not narrated yet";
    switch (run.state) {
      case "running": return "being narrated: " + percent(run.fraction);
      case "queued": return "waiting for its turn";
      case "succeeded": return "narrated";
      case "failed": return "failed: " + (run.error || "no reason given");
      case "cancelled": return "cancelled at " + percent(run.fraction);
      default: return run.state;
    }
  }

  async function showBooks(focus) {
    showView("books");
    document.title = "Books — Lectern";
    describeRate($("new-rate"));
    if (focus) $("new-book-heading").focus();
    await loadBooks();
  }

  async function loadBooks() {
    clearErrors($("books-view").querySelector("[aria-labelledby=books-heading]"));
    let jobs;
    try {
      jobs = await api("GET", "/api/v1/jobs");
    } catch (error) {
      $("books-error").textContent = "The books cannot be listed: " + error.message;
      return;
    }
    jobs.sort((a, b) => b.id - a.id);
    const list = $("book-list");
    list.replaceChildren(...jobs.map((job) => {
      const item = element("li", "book");
      const link = element("a", "book-title", job.title || job.name);
      link.href = "#jobs/" + job.id;
      const facts = element("span", "book-facts", describeJob(job) + " · added " + when(job.createdAt)
        + (state.me && state.me.admin ? " · owner " + job.owner : ""));
      item.append(link, " ", facts);
      return item;
    }));
    $("books-empty").hidden = jobs.length > 0;
    clearInterval(state.booksTimer);
    if (jobs.some((job) => job.queued || (job.latestRun && !ended.has(job.latestRun.state)))) {
      state.booksTimer = setInterval(() => { if (!$("books-view").hidden) loadBooks(); }, 5000);
    }
  }

  // One book.

  async function showBook(id, focus) {
    showView("book");
    const view = $("book-view");
    clearErrors(view);
    state.job = null;
    state.run = null;
    state.outputsKey = null;
    state.announced = null;
    $("book-heading").textContent = "Book " + id;
    $("book-facts").textContent = "";
    for (const name of ["player", "downloads", "script-body", "script-warnings"]) $(name).replaceChildren();
    $("script-summary").textContent = "";
    $("script-tools").hidden = true;
    renderRun(null, false);
    let job;
    try {
      job = await api("GET", "/api/v1/jobs/" + id);
    } catch (error) {
      $("book-heading").textContent = error.status === 404 ? "No such book" : "Book " + id;
      document.title = $("book-heading").textContent + " — Lectern";
      $("book-error").textContent = error.message;
      if (focus) $("book-heading").focus();
      return;
    }
    state.job = job;
    renderJob(job);
    if (focus) $("book-heading").focus();
    openEvents(job.id);
    loadScript(job.id);
  }

  function renderJob(job) {
    const title = job.title || job.name;
    $("book-heading").textContent = title;
    document.title = title + " — Lectern";
    $("book-facts").textContent = (job.files.length ? "From " + job.files.join(", ") : "From a manifest")
      + " · added " + when(job.createdAt) + (state.me && state.me.admin ? " · owner " + job.owner : "");
    if (job.manifestError) $("book-error").textContent = "This book cannot be narrated: " + job.manifestError;
    // The manifest's voice and speed as the service's manifest loader reads them.
    const settings = job.settings || {};
    state.settings = { title: job.title || "", voice: settings.voice || "", rate: settings.rate === undefined ? "" : String(settings.rate) };
    $("edit-title").value = state.settings.title;
    $("edit-voice").dataset.current = state.settings.voice;
    fillVoices($("edit-voice"), state.settings.voice);
    $("edit-rate").value = state.settings.rate || "0.5";
    describeRate($("edit-rate"));
    state.run = job.latestRun || null;
    renderRun(job.latestRun, job.queued);
    renderOutputs(job);
  }

  async function saveSettings(event) {
    event.preventDefault();
    const form = $("settings-form");
    clearErrors(form);
    if (!state.job) return;
    const changes = {};
    const title = $("edit-title").value.trim();
    if (title !== state.settings.title) changes.title = title;
    if ($("edit-voice").value !== state.settings.voice) changes.voice = $("edit-voice").value;
    if ($("edit-rate").value !== (state.settings.rate || "0.5") && Number($("edit-rate").value) !== Number(state.settings.rate || 0.5)) {
      changes.rate = Number($("edit-rate").value);
    }
    if (!Object.keys(changes).length) {
      notice("Nothing to save: nothing was changed.");
      return;
    }
    try {
      const job = await api("PATCH", "/api/v1/jobs/" + state.job.id, changes);
      state.job = job;
      renderJob(job);
      notice("Saved. The next narration uses the new settings.");
      loadScript(job.id);
    } catch (error) {
      showError(form, error, "settings-error");
    }
  }

  // Runs and their progress.

  function active(run, queued) {
    return Boolean(queued || (run && !ended.has(run.state)));
  }

  function setDisabled(button, disabled) {
    button.setAttribute("aria-disabled", disabled ? "true" : "false");
  }

  function renderRun(run, queued) {
    const progress = $("progress"), text = $("progress-text");
    const running = active(run, queued);
    setDisabled($("start-run"), running);
    setDisabled($("cancel-run"), !running);
    setDisabled($("delete-book"), running);
    $("start-run").textContent = run && !running ? "Narrate again" : "Start";
    let words = "";
    if (run && run.wordCount) words = run.wordsDone + " of " + count(run.wordCount, "word", "words");
    let line;
    if (!run && !queued) {
      line = "Not started yet.";
    } else if (queued || run.state === "queued") {
      line = "Waiting for a free slot: other books are being narrated.";
    } else if (run.state === "running") {
      line = percent(run.fraction) + (words ? " — " + words : " — reading the book")
        + (run.etaSeconds != null ? " — about " + duration(run.etaSeconds) + " left" : " — estimating the time left");
    } else if (run.state === "succeeded") {
      line = "100 % — " + (words || "done") + " — finished" + (run.endedAt ? " " + when(run.endedAt) : "")
        + (run.durationMs ? ", " + duration(run.durationMs / 1000) + " of audio" : "");
    } else if (run.state === "failed") {
      line = "Failed at " + percent(run.fraction) + ": " + (run.error || "no reason given");
    } else if (run.state === "cancelled") {
      line = "Cancelled at " + percent(run.fraction) + (run.error ? " (" + run.error + ")" : "") + ".";
    } else {
      line = "Stopped at " + percent(run.fraction) + " (" + run.state + ")" + (run.error ? ": " + run.error : "") + ".";
    }
    if (queued || (run && run.state === "queued")) progress.removeAttribute("value");
    else progress.value = run ? run.fraction : 0;
    progress.setAttribute("aria-valuetext", run ? percent(run.fraction) : "not started");
    text.textContent = line;
    // Said aloud on a change of state and every tenth, not on every word.
    const step = run ? run.id + ":" + run.state + ":" + Math.floor((run.fraction || 0) * 10) : "none";
    if (run && step !== state.announced) {
      $("run-status").textContent = run.state === "running" ? "Narration " + percent(run.fraction) + " done." : line;
    }
    state.announced = step;
  }

  function openEvents(id) {
    closeEvents();
    const source = new EventSource("/api/v1/jobs/" + id + "/events");
    source.addEventListener("run", (event) => {
      if (!state.job || state.job.id !== id) return;
      let run;
      try { run = JSON.parse(event.data); } catch (_) { return; }
      const before = state.run;
      state.run = run;
      renderRun(run, false);
      if (ended.has(run.state) && (!before || before.id !== run.id || before.state !== run.state)) refreshJob(id);
    });
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED && state.me) {
        api("GET", "/api/v1/me").then(() => { if (state.events === source) openEvents(id); }).catch(() => {});
      }
    });
    state.events = source;
  }

  function closeEvents() {
    if (state.events) state.events.close();
    state.events = null;
  }

  async function refreshJob(id) {
    try {
      const job = await api("GET", "/api/v1/jobs/" + id);
      if (!state.job || state.job.id !== id) return;
      state.job = job;
      renderOutputs(job);
    } catch (error) {
      $("book-error").textContent = error.message;
    }
  }

  async function runAction(button, action) {
    if (button.getAttribute("aria-disabled") === "true" || !state.job) return;
    const scope = $("run-heading").closest("section");
    clearErrors(scope);
    try {
      await action(state.job);
    } catch (error) {
      showError(scope, error, "run-error", false);
    }
  }

  async function startRun() {
    await runAction($("start-run"), async (job) => {
      const answer = await api("POST", "/api/v1/jobs/" + job.id + "/runs");
      if (answer.queued) renderRun(null, true);
      notice(answer.queued ? "The narration waits for a free slot." : "The narration has started.");
    });
  }

  async function cancelRun() {
    await runAction($("cancel-run"), async (job) => {
      await api("POST", "/api/v1/jobs/" + job.id + "/cancel");
      notice("Cancelling the narration…");
    });
  }

  async function deleteBook() {
    await runAction($("delete-book"), async (job) => {
      const title = job.title || job.name;
      if (!window.confirm("Delete “" + title + "” with its narration and every file?")) return;
      await api("DELETE", "/api/v1/jobs/" + job.id);
      notice("Deleted “" + title + "”.");
      location.hash = "";
    });
  }

  // The player and the downloads.

  function renderOutputs(job) {
    const key = job.outputs.map((o) => o.name + ":" + o.size).join("|");
    if (key === state.outputsKey) return;
    state.outputsKey = key;
    const title = job.title || job.name;
    const downloads = $("downloads"), player = $("player");
    downloads.replaceChildren(...job.outputs.map((output) => {
      const item = element("li");
      const link = element("a", "download", output.name);
      link.href = output.url;
      link.download = output.name.split("/").pop();
      link.dataset.size = String(output.size);
      const type = output.mediaType.split(";")[0].trim();
      item.append(link, element("span", "download-facts", " — " + (kinds[type] || type) + ", " + size(output.size)));
      return item;
    }));
    $("downloads-empty").hidden = job.outputs.length > 0;
    // The book's podcast feed, at its secret address, once there is audio.
    const feed = new URL(job.feed, location.href).href;
    $("feed-link").href = feed;
    $("feed-link").textContent = feed;
    $("feed").hidden = !job.outputs.some((o) => /\.(mp3|m4b|opus)$/.test(o.name));
    const pages = job.outputs.filter((o) => o.mediaType.startsWith("text/html") && !o.name.includes("/"));
    const audio = job.outputs.find((o) => /\.(mp3|m4b|opus|ogg)$/.test(o.name) && !o.name.includes("/"));
    player.replaceChildren();
    if (pages.length) {
      const page = pages[0];
      const frame = element("iframe", "player-frame");
      frame.src = page.url;
      frame.title = "Read-along player: " + title;
      const open = element("a", "", "Open the read-along page by itself");
      open.href = page.url;
      player.append(frame, element("p", "", ""));
      player.lastChild.append(open);
    } else if (audio) {
      const element_ = document.createElement("audio");
      element_.controls = true;
      element_.preload = "metadata";
      element_.src = audio.url;
      element_.setAttribute("aria-label", "Narration of " + title);
      player.append(element_);
    }
    $("listen-empty").hidden = Boolean(pages.length || audio);
  }

  // The narration script.

  async function loadScript(id) {
    const scope = $("script");
    clearErrors(scope);
    $("script-summary").textContent = "Reading the book…";
    let script;
    try {
      script = await api("GET", "/api/v1/jobs/" + id + "/script");
    } catch (error) {
      if (!state.job || state.job.id !== id) return;
      $("script-summary").textContent = "";
      $("script-error").textContent = "The book cannot be read: " + error.message;
      return;
    }
    if (!state.job || state.job.id !== id) return;
    renderScript(script);
  }

  /** The voice and language most lines are read in: only lines read otherwise say theirs. */
  function usual(lines) {
    const tally = (key) => {
      const counts = new Map();
      for (const line of lines) if (line.kind !== "skipped" && line[key]) counts.set(line[key], (counts.get(line[key]) || 0) + 1);
      return [...counts].sort((a, b) => b[1] - a[1]).map(([value]) => value)[0] || "";
    };
    return { voice: tally("voice"), language: tally("language") };
  }

  function renderLine(line, common) {
    if (line.kind === "skipped") {
      const box = element("details", "skipped");
      const summary = element("summary");
      summary.append(element("span", "skipped-mark", "Not read"), " — ",
                     element("span", "skipped-reason", line.reason || "left out"),
                     element("span", "skipped-words", " (" + count(line.words || 0, "word", "words") + ")"));
      box.append(summary, element("p", "skipped-text", line.text));
      return box;
    }
    const p = element("p", "line line-" + line.kind);
    const tags = [];
    if (line.kind === "speaker" || line.persona) tags.push((line.persona || "speaker") + (line.voice ? " — " + line.voice : ""));
    else if ((line.language && line.language !== common.language) || (line.voice && line.voice !== common.voice)) {
      tags.push([line.language, line.voice].filter(Boolean).join(": "));
    }
    if (line.kind === "quote") tags.push("dialogue");
    if (line.kind === "stageDirection") tags.push("stage direction");
    for (const tag of tags) p.append(element("span", "tag", "[" + tag + "]"), " ");
    p.append(line.kind === "heading" ? element("strong", "", line.text) : line.text);
    if (line.passages && line.passages.length) {
      const list = element("ul", "passages");
      for (const [language, voice, text] of line.passages) list.append(element("li", "", "↳ [" + language + ": " + voice + "] " + text));
      return [p, list];
    }
    return p;
  }

  function renderScript(script) {
    const skipped = script.skippedCount;
    $("script-summary").textContent = count(script.chapters.length, "chapter", "chapters") + ", " + count(script.words, "word", "words")
      + ", about " + duration(script.estimatedSeconds) + " of narration; " + count(skipped, "passage", "passages") + " left out.";
    const warnings = $("script-warnings");
    warnings.replaceChildren();
    if (script.warnings.length) {
      warnings.append(element("h4", "", "Warnings"));
      const list = element("ul", "warnings");
      for (const warning of script.warnings) list.append(element("li", "", warning));
      warnings.append(list);
    }
    const body = $("script-body");
    const parts = [];
    const total = script.chapters.reduce((n, c) => n + c.lines.length, 0) + script.unplaced.length;
    const common = usual(script.chapters.flatMap((c) => c.lines));
    if (script.unplaced.length) {
      const front = element("section", "chapter unplaced");
      front.setAttribute("aria-label", "Outside the chapters");
      front.append(element("h4", "chapter-title", "Outside the chapters"));
      for (const line of script.unplaced) front.append(...[renderLine(line, common)].flat());
      parts.push(front);
    }
    for (const chapter of script.chapters) {
      const box = element("details", "chapter");
      box.open = total <= 60;
      const summary = element("summary");
      const heading = element("h4", "chapter-title", (chapter.part ? chapter.part + " — " : "") + "Chapter " + chapter.number + ": " + chapter.title);
      const left = chapter.lines.filter((l) => l.kind === "skipped").length;
      summary.append(heading, element("span", "chapter-facts", "about " + duration(chapter.estimatedSeconds)
        + (left ? ", " + count(left, "passage", "passages") + " left out" : "")));
      box.append(summary);
      for (const line of chapter.lines) box.append(...[renderLine(line, common)].flat());
      parts.push(box);
    }
    body.replaceChildren(...parts);
    $("script-tools").hidden = script.chapters.length < 2;
  }

  function setAllChapters(open) {
    for (const box of $("script-body").querySelectorAll("details.chapter")) box.open = open;
  }

  // Wiring.

  function setUpForms() {
    // The skip link moves the focus without changing the address (which names the view).
    document.querySelector(".skip-link").addEventListener("click", (event) => {
      event.preventDefault();
      $("main").focus();
    });
    $("sign-in-form").addEventListener("submit", signIn);
    $("sign-out").addEventListener("click", signOut);
    $("new-book-form").addEventListener("submit", addBook);
    $("settings-form").addEventListener("submit", saveSettings);
    $("start-run").addEventListener("click", startRun);
    $("cancel-run").addEventListener("click", cancelRun);
    $("delete-book").addEventListener("click", deleteBook);
    $("expand-all").addEventListener("click", () => setAllChapters(true));
    $("collapse-all").addEventListener("click", () => setAllChapters(false));
    for (const button of document.querySelectorAll("button.hear")) button.addEventListener("click", () => hear(button));
    for (const id of ["new-rate", "edit-rate"]) {
      $(id).addEventListener("input", () => { $(id).dataset.touched = "1"; describeRate($(id)); });
      describeRate($(id));
    }
    setUpDropZone();
    window.addEventListener("hashchange", () => route(true));
  }

  boot();
})();
