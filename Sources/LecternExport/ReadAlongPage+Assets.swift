extension ReadAlongPage {
    /// The page's stylesheet: a bar with the title and the player, the chapter list beside the
    /// text (above it on narrow screens), each scrolling on its own.
    static let stylesheet = """
        :root { color-scheme: light dark; --word: #ffd54a; --sentence: rgba(255, 213, 74, 0.22); }
        html, body { height: 100%; }
        body { margin: 0; display: flex; flex-direction: column; font: 1.125rem/1.65 Georgia, "Times New Roman", serif; }
        header { flex: none; display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 1rem; padding: 0.5rem 1rem;
          border-bottom: 1px solid rgba(128, 128, 128, 0.35); font-family: system-ui, sans-serif; }
        header h1 { margin: 0; font-size: 1.1rem; }
        header .author { margin: 0; opacity: 0.75; }
        header audio { flex: 1 1 20rem; min-width: 0; }
        .book { flex: 1; min-height: 0; display: flex; }
        nav { flex: 0 0 17rem; overflow: auto; padding: 0.75rem 1rem; font: 0.95rem/1.4 system-ui, sans-serif;
          border-right: 1px solid rgba(128, 128, 128, 0.35); }
        nav ol { margin: 0; padding-left: 1.75rem; }
        nav li { margin: 0.2rem 0; }
        nav a { color: inherit; text-decoration: none; }
        nav a:hover { text-decoration: underline; }
        nav a.current-chapter { font-weight: bold; }
        nav li.part { display: block; margin-top: 0.6rem; }
        nav li.part > span { font-weight: 600; }
        main { flex: 1; overflow: auto; padding: 0 1.5rem 50vh; }
        main > * { max-width: 40rem; margin-left: auto; margin-right: auto; }
        section.chapter { content-visibility: auto; contain-intrinsic-size: auto 100vh; }
        h2 { font-size: 1.35rem; line-height: 1.3; margin: 2.5rem 0 1rem; }
        blockquote { margin: 1rem 2rem; font-style: italic; }
        p.list_item { margin-left: 2rem; display: list-item; }
        p.speaker { font-variant: small-caps; font-weight: bold; margin-bottom: 0; }
        p.stage_direction { font-style: italic; margin-left: 1rem; }
        .w { cursor: pointer; border-radius: 0.2em; }
        .w:hover { text-decoration: underline; }
        .w:focus { outline: 2px solid Highlight; outline-offset: 1px; }
        .w:focus:not(:focus-visible) { outline: none; }
        .current-sentence { background: var(--sentence); }
        .current-word { background: var(--word); color: #000; }
        .next-word { box-shadow: inset 0 -0.15em var(--word); }
        header details.keys { font-size: 0.85rem; }
        header details.keys p { margin: 0.25rem 0; max-width: 40rem; }
        #resume { flex: 1 1 100%; font-size: 0.95rem; }
        #resume[hidden] { display: none; }
        @media (max-width: 48rem) {
          .book { flex-direction: column; }
          nav { flex: none; max-height: 25vh; border-right: none; border-bottom: 1px solid rgba(128, 128, 128, 0.35); }
        }

        """

    /// The page's script: builds the text from the embedded data (every string goes in through
    /// `textContent`, never parsed as HTML), keeps the start times in flat arrays in reading
    /// order, and finds what is spoken by binary search — on each animation frame while playing,
    /// on every seek, and once on load for `?t=SECONDS`. Also the keys, the tab stops of the
    /// current paragraph, the remembered position and keeping the current word in view (see
    /// ``ReadAlongPage``).
    static let script = """
        (function () {
          "use strict";
          var data = JSON.parse(document.getElementById("lectern-data").textContent);
          var audio = document.getElementById("audio");
          var main = document.getElementById("text");
          var list = document.querySelector("#chapters ol");
          var tags = { heading: "h2", quote: "blockquote" };
          var wordStart = [], wordEnd = [], wordSentence = [], wordParagraph = [], sentenceStart = [], sentenceEnd = [];
          var paragraphFirstWord = [], chapterStart = [], chapterLinks = [];
          var words = 0, sentences = 0, paragraphs = 0;

          function text(s) { return document.createTextNode(s); }

          // One paragraph: its sentences and words as spans over the paragraph text, sliced by the
          // sidecar's UTF-16 offsets (the unit of JavaScript strings), text between them as is.
          function paragraph(item) {
            var kind = item[0], str = item[1], base = item[2], pos = 0, index = paragraphs++;
            var el = document.createElement(tags[kind] || "p");
            el.id = "p" + index;
            el.className = "para " + kind;
            if (item.length > 4 && item[4]) el.lang = item[4];
            paragraphFirstWord.push(words);
            item[3].forEach(function (sentence) {
              var from = Math.min(Math.max(sentence[0], pos), str.length);
              var to = Math.min(Math.max(from, sentence[0] + sentence[1]), str.length);
              if (from > pos) el.appendChild(text(str.slice(pos, from)));
              pos = from;
              var span = document.createElement("span");
              span.id = "s" + sentences;
              span.className = "s";
              var w = sentence[4];
              for (var k = 0; k < w.length; k += 4) {
                var start = Math.min(Math.max(w[k], pos), str.length);
                var end = Math.min(Math.max(start, w[k] + w[k + 1]), str.length);
                if (start > pos) span.appendChild(text(str.slice(pos, start)));
                var word = document.createElement("span");
                word.id = "w" + words++;
                word.className = "w";
                word.textContent = str.slice(start, end);
                span.appendChild(word);
                wordStart.push(base + w[k + 2]);
                wordEnd.push(base + w[k + 3]);
                wordSentence.push(sentences);
                wordParagraph.push(index);
                pos = end;
              }
              if (to > pos) { span.appendChild(text(str.slice(pos, to))); pos = to; }
              el.appendChild(span);
              sentenceStart.push(base + sentence[2]);
              sentenceEnd.push(base + sentence[3]);
              sentences++;
            });
            if (pos < str.length) el.appendChild(text(str.slice(pos)));
            return el;
          }

          var book = document.createDocumentFragment(), toc = document.createDocumentFragment();
          var partTitle = null, partList = null;  // the part being listed, while its chapters come
          data.c.forEach(function (chapter, c) {
            var section = document.createElement("section");
            section.id = "c" + c;
            section.className = "chapter";
            section.setAttribute("aria-label", chapter[0]);
            if (!chapter[3].length || chapter[3][0][0] !== "heading") {
              var title = document.createElement("h2");
              title.className = "chapter-title";
              title.textContent = chapter[0];
              section.appendChild(title);
            }
            chapter[3].forEach(function (item) {
              if (item.length > 6 && item[6]) {
                // A speaker label not spoken: shown where the book has it, not a word of the narration.
                var label = document.createElement("p");
                label.className = "speaker silent";
                label.textContent = item[6];
                section.appendChild(label);
              }
              var el = paragraph(item);
              if (item.length > 5 && item[5]) el.dataset.persona = item[5];
              section.appendChild(el);
            });
            book.appendChild(section);
            var li = document.createElement("li"), a = document.createElement("a");
            a.href = "#c" + c;
            a.dataset.chapter = String(c);
            a.textContent = chapter[0];
            li.appendChild(a);
            if (chapter.length > 4) {
              if (partList === null || chapter[4] !== partTitle) {
                var part = document.createElement("li"), name = document.createElement("span");
                part.className = "part";
                name.textContent = chapter[4];
                partList = document.createElement("ol");
                part.appendChild(name);
                part.appendChild(partList);
                toc.appendChild(part);
                partTitle = chapter[4];
              }
              partList.appendChild(li);
            } else {
              partList = null;
              toc.appendChild(li);
            }
            chapterStart.push(chapter[1]);
            chapterLinks.push(a);
          });
          paragraphFirstWord.push(words);
          main.appendChild(book);
          list.appendChild(toc);

          // The last index whose start is at or before ms, or -1.
          function last(starts, ms) {
            var lo = 0, hi = starts.length - 1, found = -1;
            while (lo <= hi) {
              var mid = (lo + hi) >> 1;
              if (starts[mid] <= ms) { found = mid; lo = mid + 1; } else { hi = mid - 1; }
            }
            return found;
          }

          function move(prefix, from, to, cls) {
            var old = from >= 0 && document.getElementById(prefix + from);
            if (old) old.classList.remove(cls);
            var el = to >= 0 && document.getElementById(prefix + to);
            if (el) el.classList.add(cls);
            return el || null;
          }

          // The tab stops: the words of one paragraph. A word that has the focus keeps its stop
          // until the focus leaves it, so moving the paragraph never drops the focus.
          var tabParagraph = -1;
          function setTabParagraph(p) {
            if (p === tabParagraph || p < 0) return;
            var k;
            if (tabParagraph >= 0) {
              for (k = paragraphFirstWord[tabParagraph]; k < paragraphFirstWord[tabParagraph + 1]; k++) {
                var old = document.getElementById("w" + k);
                if (old !== document.activeElement) old.removeAttribute("tabindex");
              }
            }
            for (k = paragraphFirstWord[p]; k < paragraphFirstWord[p + 1]; k++) document.getElementById("w" + k).tabIndex = 0;
            tabParagraph = p;
          }
          main.addEventListener("focusout", function (event) {
            var el = event.target;
            if (el.classList && el.classList.contains("w") && wordParagraph[+el.id.slice(1)] !== tabParagraph) el.removeAttribute("tabindex");
          });

          // position: the time last shown (ms); anchor: the word kept in view (the current word,
          // else the next one, else the last); anchorSeen: whether it was in view when last checked.
          var current = { w: -1, next: -1, s: -1, c: -1 }, anchor = -1, anchorSeen = false, position = 0, userScrolled = 0;

          function inView(el) {
            var view = main.getBoundingClientRect(), box = el.getBoundingClientRect();
            return box.bottom > view.top && box.top < view.bottom && box.right > view.left && box.left < view.right;
          }

          function reveal(el, behavior) {
            if (behavior === "smooth" && Date.now() - userScrolled < 4000) return;
            var view = main.getBoundingClientRect(), box = el.getBoundingClientRect();
            if (box.top < view.top + view.height * 0.15 || box.bottom > view.bottom - view.height * 0.25) {
              el.scrollIntoView({ block: "center", behavior: behavior });
            }
            anchorSeen = true;
          }

          // Scrolls the chapter list (and only it) so that a chapter's link is in view.
          var nav = document.getElementById("chapters");
          function showLink(a) {
            var view = nav.getBoundingClientRect(), box = a.getBoundingClientRect();
            if (box.top < view.top || box.bottom > view.bottom) nav.scrollTop += box.top - view.top - view.height / 3;
          }

          // Marks what the sidecar says is spoken at ms: in a pause no word, but the next one.
          function highlight(ms, behavior) {
            position = ms;
            var w = last(wordStart, ms);
            var spoken = w >= 0 && ms < wordEnd[w];
            var next = spoken || w + 1 >= words ? -1 : w + 1;
            if (!spoken) w = -1;
            var s = w >= 0 ? wordSentence[w] : last(sentenceStart, ms);
            if (w < 0 && s >= 0 && !(ms < sentenceEnd[s])) s = -1;
            var c = last(chapterStart, ms);
            if (c !== current.c) {
              if (current.c >= 0) { chapterLinks[current.c].classList.remove("current-chapter"); chapterLinks[current.c].removeAttribute("aria-current"); }
              if (c >= 0) { chapterLinks[c].classList.add("current-chapter"); chapterLinks[c].setAttribute("aria-current", "true"); }
              current.c = c;
              if (c >= 0 && behavior) showLink(chapterLinks[c]);
            }
            if (s !== current.s) { move("s", current.s, s, "current-sentence"); current.s = s; }
            if (w !== current.w) { move("w", current.w, w, "current-word"); current.w = w; }
            if (next !== current.next) { move("w", current.next, next, "next-word"); current.next = next; }
            var a = w >= 0 ? w : next >= 0 ? next : words - 1;
            if (a !== anchor && a >= 0) {
              anchor = a;
              setTabParagraph(wordParagraph[a]);
              if (behavior) reveal(document.getElementById("w" + a), behavior);
            }
          }

          function now() { return Math.round(audio.currentTime * 1000); }

          // The remembered position, per book.
          var key = "lectern.position." + data.id, savedAt = 0;
          function save() {
            savedAt = Date.now();
            try { localStorage.setItem(key, String(position)); } catch (e) { /* storage off: nothing to remember */ }
          }
          function saved() {
            try { var ms = parseInt(localStorage.getItem(key), 10); return ms > 0 ? ms : -1; } catch (e) { return -1; }
          }

          function seek(ms) {
            audio.currentTime = ms / 1000;
            highlight(ms, "auto");
            save();
          }

          var frame = 0;
          function tick() {
            frame = 0;
            highlight(now(), "smooth");
            if (!audio.paused && !audio.ended) frame = requestAnimationFrame(tick);
          }
          audio.addEventListener("play", function () { hideOffer(); if (!frame) frame = requestAnimationFrame(tick); });
          audio.addEventListener("seeked", function () { highlight(now(), "auto"); });
          audio.addEventListener("timeupdate", function () {
            if (!frame) highlight(now(), "smooth");
            if (!audio.paused && Date.now() - savedAt > 5000) save();
          });
          audio.addEventListener("pause", function () { highlight(now(), null); save(); });
          audio.addEventListener("ended", function () { try { localStorage.removeItem(key); } catch (e) { /* nothing */ } });
          window.addEventListener("pagehide", function () { if (!audio.paused) { position = now(); save(); } });

          function toggle() {
            if (audio.paused) {
              var playing = audio.play();
              if (playing && playing.catch) playing.catch(function () { /* refused: stays paused */ });
            } else {
              audio.pause();
            }
          }

          // Moves to a start time by key; a word with the focus hands it to the new anchor.
          function go(ms) {
            var focused = document.activeElement && document.activeElement.classList.contains("w");
            userScrolled = 0;
            seek(ms);
            if (focused && anchor >= 0) document.getElementById("w" + anchor).focus({ preventScroll: true });
          }
          function step(starts, ends, by) {
            var i = last(starts, position);
            var target = by > 0 ? i + 1 : (ends && i >= 0 && position >= ends[i] ? i : i - 1);
            go(starts[Math.min(Math.max(target, 0), starts.length - 1)]);
          }

          document.addEventListener("keydown", function (event) {
            var el = event.target, tag = el && el.tagName;
            if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey ||
                tag === "BUTTON" || tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || tag === "SUMMARY" || (el && el.isContentEditable)) {
              scrolledByHand();
              return;
            }
            // Space plays and pauses here whatever has the focus, the player too: one toggle per
            // press (a held key does not repeat it), and the release is kept from the player's own
            // controls, which would toggle again on it.
            if (event.key === " " && !event.shiftKey) { if (!event.repeat) toggle(); spacePressed = true; }
            else if (event.key === "ArrowLeft" && words) { if (event.shiftKey) step(chapterStart, null, -1); else step(sentenceStart, sentenceEnd, -1); }
            else if (event.key === "ArrowRight" && words) { if (event.shiftKey) step(chapterStart, null, 1); else step(sentenceStart, sentenceEnd, 1); }
            else if (event.key === "Enter" && el.classList && el.classList.contains("w")) { go(wordStart[+el.id.slice(1)]); if (audio.paused) toggle(); }
            else { scrolledByHand(); return; }
            event.preventDefault();
          });

          var spacePressed = false;
          window.addEventListener("keyup", function (event) {
            if (event.key !== " " || !spacePressed) return;
            spacePressed = false;
            event.preventDefault();
            event.stopPropagation();
          }, true);

          main.addEventListener("click", function (event) {
            var el = event.target;
            if (el.classList && el.classList.contains("w")) seek(wordStart[+el.id.slice(1)]);
          });
          list.addEventListener("click", function (event) {
            var a = event.target.closest && event.target.closest("a[data-chapter]");
            if (!a) return;
            event.preventDefault();
            var c = +a.dataset.chapter;
            seek(chapterStart[c]);
            document.getElementById("c" + c).scrollIntoView({ block: "start" });
          });
          function scrolledByHand() { userScrolled = Date.now(); }
          main.addEventListener("wheel", scrolledByHand, { passive: true });
          main.addEventListener("touchmove", scrolledByHand, { passive: true });
          main.addEventListener("pointerdown", scrolledByHand, { passive: true });
          // Only the reader's own scrolling decides whether the anchor is still followed: the
          // scroll events of a reflow (a resize) come before the anchor is put back.
          main.addEventListener("scroll", function () {
            if (anchor >= 0 && Date.now() - userScrolled < 1000) anchorSeen = inView(document.getElementById("w" + anchor));
          }, { passive: true });

          // A resize or rotation reflows the text: bring the anchor back if it was in view.
          var resizing = 0;
          function keepAnchor() {
            resizing = 0;
            if (anchor >= 0 && anchorSeen) reveal(document.getElementById("w" + anchor), "auto");
            if (current.c >= 0) showLink(chapterLinks[current.c]);
          }
          function resized() { if (!resizing) resizing = requestAnimationFrame(keepAnchor); }
          window.addEventListener("resize", resized);
          window.addEventListener("orientationchange", resized);
          // Called after layout, before paint: the text box changed size (the window, or the
          // header wrapping), so the anchor is put back before the reader sees it gone.
          if (window.ResizeObserver) new ResizeObserver(function () { if (resizing) cancelAnimationFrame(resizing); keepAnchor(); }).observe(main);

          // The offer to continue where the last visit stopped.
          var offer = document.getElementById("resume");
          function hideOffer() { offer.hidden = true; }
          function clock(ms) {
            var s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
            s %= 60;
            return (h ? h + ":" + (m < 10 ? "0" : "") : "") + m + ":" + (s < 10 ? "0" : "") + s;
          }
          document.getElementById("resume-continue").addEventListener("click", function () {
            var ms = +offer.dataset.ms;
            hideOffer();
            seek(ms);
            if (anchor >= 0) document.getElementById("w" + anchor).focus({ preventScroll: true });
          });
          document.getElementById("resume-dismiss").addEventListener("click", function () {
            hideOffer();
            audio.focus();
          });

          var t = parseFloat(new URLSearchParams(location.search).get("t"));
          if (t >= 0 && isFinite(t)) {
            seek(Math.round(t * 1000));
          } else {
            highlight(0, null);
            var back = saved(), end = data.c.length ? data.c[data.c.length - 1][2] : 0;
            if (back > 0 && back < end) {
              var c = last(chapterStart, back);
              offer.dataset.ms = String(back);
              document.getElementById("resume-text").textContent =
                "You stopped at " + clock(back) + (c >= 0 ? " in \\u201c" + data.c[c][0] + "\\u201d" : "") + ".";
              offer.hidden = false;
            }
          }
          document.body.dataset.ready = "1";
        })();

        """
}
