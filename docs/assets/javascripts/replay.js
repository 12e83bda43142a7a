/* The chapters' replay widget: plays back a seeded scenario run, step by step.
 *
 * docs/hooks.py writes one JSON trace per scenario and seed into
 * assets/replay/ (minikcm/sim/replay.py makes them; its module docstring
 * describes the shape) and turns each `<div class="replay" data-scenario=...>`
 * on a chapter page into a placeholder carrying data-src, data-seeds,
 * data-lang and data-root. This file builds the widget inside it: controls,
 * the functions that ran (linked to the API reference and the Go twin), the
 * `minikcm demo run ... --break` command for the step, the objects at that
 * step and what the step changed. No Python and no network beyond the site.
 *
 * Keyboard: on the widget, Left/Right step, Home/End jump, Space or K plays,
 * W / Shift+W jump to the next / previous step that wrote to the API, and
 * C / Shift+C to the next / previous sync of the controller picked in the
 * "sync of" list (a step named `<controller>/worker`); S, F, N and P stay
 * Material's (search, pages). The heading is one
 * element, "Replay · <title>", so it never wraps or shows a lone separator.
 */
(function () {
  "use strict";

  var FORMAT = 1;
  var COLOURS = ["#3f51b5", "#e65100", "#2e7d32", "#ad1457", "#00838f", "#6d4c41"];
  var STATE_COLOURS = { Pending: "#e65100", Running: "#00838f", Ready: "#2e7d32", Terminating: "#c62828",
                        Succeeded: "#6d4c41", Failed: "#c62828" };
  var SPEEDS = [0.5, 1, 2, 4, 8, 16];
  var BASE_DELAY_MS = 700;
  var ICONS = {  // 24x24 paths, drawn in the button's text colour (no icon font needed)
    first: "M5 5h2v14H5zM19 5v14L8 12z", back: "M15 5h2v14h-2zM13 5v14L4 12z", play: "M7 5v14l12-7z",
    pause: "M7 5h4v14H7zM13 5h4v14h-4z", forward: "M7 5h2v14H7zM11 5v14l9-7z", last: "M5 5v14l11-7zM17 5h2v14h-2z",
    "prev-write": "M11 5v14L3 12zM13 9h8v6h-8z", "next-write": "M13 5v14l8-7zM3 9h8v6H3z",
    "prev-sync": "M12 4a8 8 0 1 0 8 8h-2a6 6 0 1 1-6-6v3l5-4-5-4z", "next-sync": "M12 4a8 8 0 1 1-8 8h2a6 6 0 1 0 6-6v3L7 5l5-4z"
  };
  var WORKER = /\/worker(-\d+)?$/;  // a controller's worker step: one sync per run
  var GROUPS = [
    ["leases", "lease"], ["deployments", "workload"], ["statefulsets", "workload"],
    ["replicasets", "workload"], ["pods", "pods"], ["controllerrevisions", "revisions"],
    ["persistentvolumeclaims", "claims"]
  ];

  var WORDS = {
    zh: {
      label: "回放", seed: "种子", speed: "速度", play: "播放", pause: "暂停", first: "回到开头",
      back: "后退一步", forward: "前进一步", last: "跳到结尾", step: "第 {i} / {n} 步", time: "t = {t} 秒（假时钟）",
      ran: "这一步运行的函数", go: "Go 对应", noFn: "（脚本在两步之间的操作）", command: "在调试器里停在这一步：",
      copy: "复制", copied: "已复制", objects: "此刻的对象", changes: "这一步改变了什么", writes: "API 写操作",
      notes: "组件记录的内容", nothing: "（无变化）", queue: "工作队列", series: "指标", loading: "正在载入回放……",
      failed: "回放载入失败：", keys: "队列中", processing: "处理中", waiting: "等待中", requeues: "重试次数",
      holder: "持有者", renew: "续约于", transitions: "换主次数", replicas: "期望", current: "现有",
      ready: "就绪", available: "可用", updated: "已更新", partition: "分区", deleting: "删除中", none: "无",
      failedWrite: "失败", removed: "已删除", added: "新建",
      help: "左右方向键单步，Home/End 跳转，空格播放或暂停；W / Shift+W 跳到下一个 / 上一个写了 API 的步，C / Shift+C 跳到所选控制器的下一次 / 上一次同步。",
      prevWrite: "上一个写 API 的步 (Shift+W)", nextWrite: "下一个写 API 的步 (W)", syncOf: "同步",
      prevSync: "所选控制器的上一次同步 (Shift+C)", nextSync: "所选控制器的下一次同步 (C)", noMore: "后面没有了", noBefore: "前面没有了"
    },
    en: {
      label: "Replay", seed: "seed", speed: "speed", play: "Play", pause: "Pause", first: "Go to the start",
      back: "Step back", forward: "Step forward", last: "Go to the end", step: "step {i} of {n}",
      time: "t = {t} s (fake clock)", ran: "Functions that ran in this step", go: "Go twin",
      noFn: "(the script acting between steps)", command: "Stop at this step in a debugger:", copy: "Copy",
      copied: "Copied", objects: "Objects at this step", changes: "What this step changed", writes: "API writes",
      notes: "What the components recorded", nothing: "(no change)", queue: "work queue", series: "Series",
      loading: "Loading the replay…", failed: "Could not load the replay: ", keys: "queued",
      processing: "processing", waiting: "waiting", requeues: "requeues", holder: "holder", renew: "renewed at",
      transitions: "transitions", replicas: "desired", current: "current", ready: "ready",
      available: "available", updated: "updated", partition: "partition", deleting: "deleting", none: "none",
      failedWrite: "failed", removed: "deleted", added: "created",
      help: "Left/Right arrows step, Home/End jump, Space plays or pauses; W / Shift+W jump to the next / previous " +
        "step that wrote to the API, C / Shift+C to the next / previous sync of the chosen controller.",
      prevWrite: "Previous step that wrote to the API (Shift+W)", nextWrite: "Next step that wrote to the API (W)",
      syncOf: "sync of", prevSync: "Previous sync of the chosen controller (Shift+C)",
      nextSync: "Next sync of the chosen controller (C)", noMore: "none after this step", noBefore: "none before this step"
    }
  };

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") node.textContent = attrs[key];
      else if (key === "class") node.className = attrs[key];
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) {
      if (child !== null && child !== undefined) node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function icon(name) {
    var ns = "http://www.w3.org/2000/svg";
    var svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("class", "replay__icon");
    var path = document.createElementNS(ns, "path");
    path.setAttribute("d", ICONS[name]);
    path.setAttribute("fill", "currentColor");
    svg.appendChild(path);
    return svg;
  }

  function fmt(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) { return String(values[key]); });
  }

  function seconds(t) {
    return (Math.round(t * 1000) / 1000).toFixed(3);
  }

  function show(value) {
    if (value === null || value === undefined) return "∅";
    if (typeof value === "object") return JSON.stringify(value);
    return String(value);
  }

  /* States after each step: state[i] applies the diffs of steps 0..i to an empty world. */
  function buildStates(trace) {
    var states = [], current = {};
    trace.steps.forEach(function (step) {
      var diff = step.diff || {};
      var keys = Object.keys(diff);
      if (keys.length) {
        var next = {};
        Object.keys(current).forEach(function (k) { next[k] = current[k]; });
        keys.forEach(function (k) { if (diff[k] === null) delete next[k]; else next[k] = diff[k]; });
        current = next;
      }
      states.push(current);
    });
    return states;
  }

  /* A colour per revision (or lease holder), in order of first appearance: the figures' palette. */
  function buildColours(trace) {
    var order = {};
    function note(value) {
      if (value && !(value in order)) order[value] = Object.keys(order).length;
    }
    trace.steps.forEach(function (step) {
      var diff = step.diff || {};
      Object.keys(diff).sort().forEach(function (key) {
        var v = diff[key];
        if (!v || typeof v !== "object") return;
        if (key.indexOf("pods/") === 0) note(v.revision);
        if (key.indexOf("replicasets/") === 0) note(v.hash);
        if (key.indexOf("controllerrevisions/") === 0) note(key.slice(20));
        if (key.indexOf("leases/") === 0) note(v.holder);
      });
    });
    return function (value) {
      return value in order ? COLOURS[order[value] % COLOURS.length] : "#90a4ae";
    };
  }

  function Replay(root) {
    this.root = root;
    this.lang = WORDS[root.dataset.lang] ? root.dataset.lang : "en";
    this.words = WORDS[this.lang];
    this.scenario = root.dataset.scenario;
    this.seeds = (root.dataset.seeds || "1").split(/\s+/).filter(Boolean);
    this.src = root.dataset.src || "";
    this.base = root.dataset.root || "";
    this.pos = 0;
    this.speed = 1;
    this.timer = null;
    this.trace = null;
    this.build();
    this.load(this.seeds[0]);
  }

  Replay.prototype.build = function () {
    var w = this.words, self = this;
    var root = this.root;
    root.textContent = "";
    root.setAttribute("tabindex", "0");
    root.setAttribute("role", "group");
    root.setAttribute("aria-label", w.label + " " + this.scenario);
    this.title = el("span", { class: "replay__title", text: this.scenario });
    this.heading = el("strong", { class: "replay__heading" }, [w.label + " · ", this.title]);
    this.seedSelect = el("select", { class: "replay__seed", "aria-label": w.seed });
    this.seeds.forEach(function (seed) { self.seedSelect.appendChild(el("option", { value: seed, text: seed })); });
    this.speedSelect = el("select", { class: "replay__speed", "aria-label": w.speed });
    SPEEDS.forEach(function (s) {
      var option = el("option", { value: String(s), text: s + "×" });
      if (s === 1) option.selected = true;
      self.speedSelect.appendChild(option);
    });
    function button(act, label) {
      return el("button", { type: "button", class: "replay__button", "data-act": act, title: label, "aria-label": label }, [icon(act)]);
    }
    this.playButton = button("play", w.play);
    this.workerSelect = el("select", { class: "replay__worker", "aria-label": w.syncOf });
    this.syncField = el("span", { class: "replay__jumps replay__sync" }, [
      button("prev-sync", w.prevSync), el("label", { class: "replay__field-inline" }, [w.syncOf + " ", this.workerSelect]),
      button("next-sync", w.nextSync)
    ]);
    this.jumpNote = el("span", { class: "replay__jump-note", "aria-live": "polite" });
    this.slider = el("input", { type: "range", class: "replay__slider", min: "0", max: "0", value: "0", "aria-label": w.label });
    this.position = el("span", { class: "replay__position", "aria-live": "polite" });
    this.stepName = el("code", { class: "replay__step-name" });
    this.functions = el("ol", { class: "replay__functions", "aria-label": w.ran });
    this.command = el("code", { class: "replay__command" });
    this.copyButton = el("button", { type: "button", class: "replay__button replay__copy", "data-act": "copy" }, [w.copy]);
    this.objects = el("div", { class: "replay__objects" });
    this.changes = el("div", { class: "replay__changes" });
    root.appendChild(el("div", { class: "replay__head" }, [
      this.heading,
      el("label", { class: "replay__field" }, [w.seed + " ", this.seedSelect]),
      el("label", { class: "replay__field" }, [w.speed + " ", this.speedSelect])
    ]));
    root.appendChild(el("div", { class: "replay__controls" }, [
      button("first", w.first), button("back", w.back), this.playButton,
      button("forward", w.forward), button("last", w.last), this.slider
    ]));
    root.appendChild(el("div", { class: "replay__controls replay__jump-row" }, [
      el("span", { class: "replay__jumps" }, [button("prev-write", w.prevWrite), button("next-write", w.nextWrite)]),
      this.syncField, this.jumpNote
    ]));
    root.appendChild(el("div", { class: "replay__where" }, [this.position, " ", this.stepName]));
    root.appendChild(el("div", { class: "replay__ran" }, [
      el("div", { class: "replay__caption", text: w.ran }), this.functions,
      el("div", { class: "replay__caption", text: w.command }),
      el("div", { class: "replay__command-row" }, [this.command, this.copyButton])
    ]));
    root.appendChild(el("div", { class: "replay__panels" }, [
      el("section", { class: "replay__panel" }, [el("h4", { text: w.objects }), this.objects]),
      el("section", { class: "replay__panel" }, [el("h4", { text: w.changes }), this.changes])
    ]));
    root.appendChild(el("p", { class: "replay__help", text: w.help }));
    this.status = el("p", { class: "replay__status", text: w.loading });
    root.appendChild(this.status);

    root.addEventListener("click", function (event) {
      var target = event.target.closest("button[data-act]");
      if (target && root.contains(target)) self.act(target.getAttribute("data-act"));
    });
    this.slider.addEventListener("input", function () { self.pause(); self.go(parseInt(self.slider.value, 10)); });
    this.seedSelect.addEventListener("change", function () { self.pause(); self.load(self.seedSelect.value); });
    this.speedSelect.addEventListener("change", function () { self.speed = parseFloat(self.speedSelect.value) || 1; });
    root.addEventListener("keydown", function (event) {
      var tag = event.target.tagName;
      if (tag === "SELECT" || tag === "INPUT" || event.altKey || event.ctrlKey || event.metaKey) return;
      var act = { ArrowRight: "forward", ArrowLeft: "back", Home: "first", End: "last", " ": "play", k: "play",
                  w: "next-write", W: "prev-write", c: "next-sync", C: "prev-sync" }[event.key];
      if (act && !(act === "play" && tag === "BUTTON" && event.key === " ")) {
        event.preventDefault();
        event.stopPropagation();  // the page's own shortcuts do not see a key the widget used
        self.act(act);
      }
    });
  };

  Replay.prototype.load = function (seed) {
    var self = this, w = this.words;
    var url = this.src + this.scenario + "-seed" + seed + ".json";
    this.root.dataset.ready = "loading";
    fetch(url).then(function (response) {
      if (!response.ok) throw new Error(response.status + " " + url);
      return response.json();
    }).then(function (trace) {
      if (trace.format !== FORMAT || !trace.steps || !trace.steps.length) throw new Error("format " + trace.format);
      self.trace = trace;
      self.seed = seed;
      self.states = buildStates(trace);
      self.colour = buildColours(trace);
      self.title.textContent = (trace.title && trace.title[self.lang]) || trace.scenario;
      self.fillWorkers(trace);
      self.slider.max = String(trace.steps.length - 1);
      self.status.textContent = "";
      self.root.dataset.ready = "yes";
      self.root.dataset.seed = seed;
      self.go(Math.min(self.pos, trace.steps.length - 1));
    }).catch(function (error) {
      self.status.textContent = w.failed + error.message;
      self.root.dataset.ready = "failed";
    });
  };

  Replay.prototype.act = function (act) {
    if (!this.trace) return;
    var last = this.trace.steps.length - 1;
    if (act === "play") { if (this.timer) this.pause(); else this.play(); return; }
    if (act === "copy") { this.copy(); return; }
    this.pause();
    this.jumpNote.textContent = "";
    if (act === "next-write" || act === "prev-write") {
      this.jump(act === "next-write" ? 1 : -1, function (step) { return !!(step.writes && step.writes.length); });
      return;
    }
    if (act === "next-sync" || act === "prev-sync") {
      var worker = this.workerSelect.value;
      if (worker) this.jump(act === "next-sync" ? 1 : -1, function (step) { return step.name === worker; });
      return;
    }
    if (act === "first") this.go(0);
    else if (act === "last") this.go(last);
    else if (act === "back") this.go(this.pos - 1);
    else if (act === "forward") this.go(this.pos + 1);
  };

  /* The controllers whose syncs can be jumped to: the worker steps of this trace, in order of first run. */
  Replay.prototype.fillWorkers = function (trace) {
    var self = this, names = [], chosen = this.workerSelect.value;
    trace.steps.forEach(function (step) {
      if (WORKER.test(step.name) && names.indexOf(step.name) < 0) names.push(step.name);
    });
    this.workerSelect.textContent = "";
    names.forEach(function (name) {
      self.workerSelect.appendChild(el("option", { value: name, text: name.replace(WORKER, "") }));
    });
    if (names.indexOf(chosen) >= 0) this.workerSelect.value = chosen;
    this.syncField.hidden = !names.length;
  };

  /* Go to the nearest step after (dir 1) or before (dir -1) this one for which test(step) holds. */
  Replay.prototype.jump = function (dir, test) {
    var steps = this.trace.steps;
    for (var i = this.pos + dir; i >= 0 && i < steps.length; i += dir) {
      if (test(steps[i])) { this.go(i); return; }
    }
    this.jumpNote.textContent = dir > 0 ? this.words.noMore : this.words.noBefore;
  };

  Replay.prototype.play = function () {
    var self = this, w = this.words;
    if (this.pos >= this.trace.steps.length - 1) this.go(0);
    this.playButton.replaceChildren(icon("pause"));
    this.playButton.setAttribute("aria-label", w.pause);
    this.root.dataset.playing = "yes";
    this.playButton.title = w.pause;
    function tick() {
      if (!self.root.isConnected || self.pos >= self.trace.steps.length - 1) { self.pause(); return; }
      self.go(self.pos + 1);
      self.timer = window.setTimeout(tick, BASE_DELAY_MS / self.speed);
    }
    this.timer = window.setTimeout(tick, BASE_DELAY_MS / this.speed);
  };

  Replay.prototype.pause = function () {
    if (this.timer) window.clearTimeout(this.timer);
    this.timer = null;
    this.playButton.replaceChildren(icon("play"));
    this.playButton.setAttribute("aria-label", this.words.play);
    this.root.dataset.playing = "no";
    this.playButton.title = this.words.play;
  };

  Replay.prototype.copy = function () {
    var self = this, text = this.command.textContent;
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () {
        self.copyButton.textContent = self.words.copied;
        window.setTimeout(function () { self.copyButton.textContent = self.words.copy; }, 1500);
      }, function () {});
    }
  };

  Replay.prototype.go = function (pos) {
    var steps = this.trace.steps;
    this.pos = Math.max(0, Math.min(steps.length - 1, pos));
    var step = steps[this.pos];
    this.slider.value = String(this.pos);
    this.root.dataset.step = String(this.pos);
    this.position.textContent = fmt(this.words.step, { i: this.pos + 1, n: steps.length }) + " · " +
      fmt(this.words.time, { t: seconds(step.t) });
    this.stepName.textContent = step.name;
    this.drawFunctions(step);
    this.drawCommand(step);
    this.drawObjects(this.states[this.pos], step.diff || {});
    this.drawChanges(step, this.pos > 0 ? this.states[this.pos - 1] : {});
  };

  Replay.prototype.drawFunctions = function (step) {
    var self = this, list = this.functions;
    list.textContent = "";
    if (!step.fn.length) {
      list.appendChild(el("li", { class: "replay__none", text: this.words.noFn }));
      return;
    }
    step.fn.forEach(function (index) {
      var f = self.trace.functions[index];
      var name = el("code", { text: f.name });
      var item = el("li", { class: "replay__fn", "data-fn": f.name }, [
        f.ref ? el("a", { href: self.base + f.ref, class: "replay__ref" }, [name]) : name
      ]);
      if (f.go) {
        var go = self.words.go + ": " + f.go;
        item.appendChild(document.createTextNode(" "));
        item.appendChild(f.upstream
          ? el("a", { href: f.upstream, class: "replay__go", rel: "noopener" }, [go])
          : el("span", { class: "replay__go", text: go }));
      }
      list.appendChild(item);
    });
  };

  Replay.prototype.drawCommand = function (step) {
    var command = this.trace.command;
    if (step.brk) {
      command += " --break " + this.trace.functions[step.brk[0]].name;
      if (step.brk[1] > 1) command += " --hit " + step.brk[1];
    }
    this.command.textContent = command;
  };

  function chip(text, colour, extra) {
    var node = el("span", { class: "replay__chip" + (extra ? " " + extra : ""), text: text });
    if (colour) node.style.setProperty("--chip", colour);
    return node;
  }

  Replay.prototype.drawObjects = function (state, diff) {
    var self = this, w = this.words, box = this.objects;
    box.textContent = "";
    var keys = Object.keys(state).sort();
    GROUPS.forEach(function (group) {
      var resource = group[0], mine = keys.filter(function (k) { return k.indexOf(resource + "/") === 0; });
      if (!mine.length) return;
      if (resource === "pods") { box.appendChild(self.drawPods(mine, state, diff)); return; }
      if (group[1] === "revisions" || group[1] === "claims") { box.appendChild(self.drawCompact(resource, mine, state, diff)); return; }
      mine.forEach(function (key) { box.appendChild(self.drawObject(key, state[key], key in diff)); });
    });
    keys.filter(function (k) { return k.indexOf("queue/") === 0; }).forEach(function (key) {
      box.appendChild(self.drawQueue(key, state[key], key in diff));
    });
    var series = keys.filter(function (k) { return k.indexOf("series/") === 0; });
    if (series.length) {
      var table = el("table", { class: "replay__series" }, [el("caption", { text: w.series })]);
      series.forEach(function (key) {
        table.appendChild(el("tr", { "data-key": key, class: key in diff ? "replay--changed" : "" }, [
          el("th", { text: key.slice(7) }), el("td", { text: show(state[key]) })
        ]));
      });
      box.appendChild(table);
    }
  };

  Replay.prototype.drawObject = function (key, value, changed) {
    var w = this.words, parts = [];
    var resource = key.split("/")[0], name = key.slice(resource.length + 1);
    var card = el("div", { class: "replay__card" + (changed ? " replay--changed" : ""), "data-key": key });
    var head = el("div", { class: "replay__card-head" }, [el("span", { class: "replay__kind", text: resource }), " ", el("strong", { text: name })]);
    card.appendChild(head);
    if (resource === "leases") {
      parts.push(el("span", {}, [w.holder + " ", value.holder ? chip(value.holder, this.colour(value.holder)) : w.none]));
      if (value.renew !== null && value.renew !== undefined) parts.push(w.renew + " " + seconds(value.renew) + " s");
      parts.push(w.transitions + " " + value.transitions);
    } else if (resource === "controllerrevisions") {
      parts.push("revision " + value.revision);
    } else if (resource === "persistentvolumeclaims") {
      parts.push(value.phase);
    } else {
      var colour = resource === "replicasets" ? this.colour(value.hash)
        : resource === "statefulsets" ? this.colour(value.updateRevision) : "";
      if (resource === "replicasets" && value.hash) head.appendChild(chip(value.revision ? "rev " + value.revision : value.hash, colour));
      var bar = el("span", { class: "replay__bar", role: "img",
        "aria-label": value.ready + " " + w.ready + " / " + value.replicas + " " + w.replicas });
      var total = Math.max(value.replicas, value.current, 1);
      for (var i = 0; i < total; i++) {
        var cls = i < value.ready ? "is-ready" : i < value.current ? "is-current" : "is-wanted";
        var cell = el("span", { class: "replay__cell " + cls });
        if (colour) cell.style.setProperty("--chip", colour);
        bar.appendChild(cell);
      }
      parts.push(bar);
      parts.push(w.replicas + " " + value.replicas + " · " + w.current + " " + value.current + " · " + w.ready + " " + value.ready);
      if ("updated" in value) parts.push(w.updated + " " + value.updated);
      if ("partition" in value && value.partition) parts.push(w.partition + " " + value.partition);
      if (value.image) parts.push(value.image);
    }
    if (value.deleting) parts.push(chip(w.deleting, "#c62828"));
    card.appendChild(el("div", { class: "replay__card-body" }, parts.map(function (p) {
      return typeof p === "string" ? el("span", { text: p }) : p;
    })));
    return card;
  };

  /* Many small objects of one kind (ControllerRevisions, PVCs) as one card of chips. */
  Replay.prototype.drawCompact = function (resource, keys, state, diff) {
    var self = this;
    var card = el("div", { class: "replay__card" }, [el("div", { class: "replay__card-head" }, [el("span", { class: "replay__kind", text: resource })])]);
    var body = el("div", { class: "replay__card-body" });
    keys.forEach(function (key) {
      var name = key.slice(resource.length + 1), value = state[key];
      var text = resource === "controllerrevisions" ? name + " · rev " + value.revision : name + " · " + value.phase;
      var node = chip(text, resource === "controllerrevisions" ? self.colour(name) : null, key in diff ? "replay--changed" : "");
      node.setAttribute("data-key", key);
      body.appendChild(node);
    });
    card.appendChild(body);
    return card;
  };

  Replay.prototype.drawPods = function (keys, state, diff) {
    var self = this;
    var grid = el("div", { class: "replay__pods", role: "list" });
    keys.slice().sort(function (a, b) {
      var x = state[a], y = state[b];
      if ("ordinal" in x && "ordinal" in y) return x.ordinal - y.ordinal;
      return a < b ? -1 : a > b ? 1 : 0;
    }).forEach(function (key) {
      var pod = state[key], name = key.slice(5);
      var phase = pod.deleting ? "Terminating" : pod.ready ? "Ready" : pod.phase;
      var label = "ordinal" in pod ? String(pod.ordinal) : name.slice(-5);
      var node = el("span", {
        class: "replay__pod" + (key in diff ? " replay--changed" : "") + (pod.deleting ? " is-deleting" : ""),
        role: "listitem", "data-key": key,
        title: name + " · " + phase + (pod.revision ? " · " + pod.revision : "") + (pod.image ? " · " + pod.image : "")
      }, [el("span", { class: "replay__pod-label", text: label }), el("span", { class: "replay__pod-phase", text: phase })]);
      node.style.setProperty("--state", STATE_COLOURS[phase] || "#90a4ae");
      node.style.setProperty("--chip", self.colour(pod.revision));
      grid.appendChild(node);
    });
    return grid;
  };

  Replay.prototype.drawQueue = function (key, queue, changed) {
    var w = this.words;
    var card = el("div", { class: "replay__card replay__queue" + (changed ? " replay--changed" : ""), "data-key": key });
    card.appendChild(el("div", { class: "replay__card-head" }, [el("span", { class: "replay__kind", text: w.queue }), " ", el("strong", { text: key.slice(6) })]));
    function row(label, items) {
      var line = el("div", { class: "replay__queue-row" }, [el("span", { class: "replay__queue-label", text: label })]);
      if (!items.length) line.appendChild(el("span", { class: "replay__none", text: w.none }));
      items.forEach(function (item) { line.appendChild(item); });
      return line;
    }
    function withCount(k, cls) {
      var n = queue.requeues[k];
      return chip(k + (n ? " ×" + n : ""), null, cls);
    }
    card.appendChild(row(w.keys, queue.keys.map(function (k) { return withCount(k, "is-queued"); })));
    card.appendChild(row(w.processing, queue.processing.map(function (k) { return withCount(k, "is-processing"); })));
    card.appendChild(row(w.waiting, queue.waiting.map(function (pair) {
      return chip(pair[0] + " @" + seconds(pair[1]) + " s" + (queue.requeues[pair[0]] ? " ×" + queue.requeues[pair[0]] : ""), null, "is-waiting");
    })));
    return card;
  };

  Replay.prototype.drawChanges = function (step, before) {
    var w = this.words, box = this.changes;
    box.textContent = "";
    if (step.writes && step.writes.length) {
      var writes = el("ul", { class: "replay__writes", "aria-label": w.writes });
      step.writes.forEach(function (write) {
        writes.appendChild(el("li", { class: write[3] ? "" : "is-failed" }, [
          el("code", { text: write[0] + " " + write[1] + " " + write[2] }), write[3] ? "" : " (" + w.failedWrite + ")"
        ]));
      });
      box.appendChild(el("div", { class: "replay__caption", text: w.writes }));
      box.appendChild(writes);
    }
    var diff = step.diff || {}, keys = Object.keys(diff).sort();
    var list = el("ul", { class: "replay__diff" });
    keys.forEach(function (key) {
      var was = before[key], now = diff[key], text;
      if (now === null) text = w.removed;
      else if (was === undefined) text = w.added;
      else if (typeof now === "object" && now && typeof was === "object" && was) {
        text = Object.keys(now).concat(Object.keys(was)).filter(function (k, i, all) {
          return all.indexOf(k) === i && show(was[k]) !== show(now[k]);
        }).sort().map(function (k) { return k + ": " + show(was[k]) + " → " + show(now[k]); }).join(", ");
      } else text = show(was) + " → " + show(now);
      list.appendChild(el("li", { "data-key": key }, [el("code", { text: key }), " " + text]));
    });
    if (!keys.length) list.appendChild(el("li", { class: "replay__none", text: w.nothing }));
    box.appendChild(list);
    if (step.notes && step.notes.length) {
      box.appendChild(el("div", { class: "replay__caption", text: w.notes }));
      box.appendChild(el("pre", { class: "replay__notes", text: step.notes.join("\n") }));
    }
  };

  function initAll() {
    document.querySelectorAll("div.replay[data-src]").forEach(function (root) {
      if (!root.dataset.ready) new Replay(root);
    });
  }

  // Material's document$ emits on every page, instant navigation included; without it, DOMContentLoaded.
  if (typeof window.document$ !== "undefined" && window.document$.subscribe) window.document$.subscribe(initAll);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", initAll);
  else initAll();
})();
