// The teacher's hub page: for the hub address typed once, write one nbgitpuller link per
// chapter and one for the whole folder (bookbuild/hub_links.py builds the same links and
// tests/test_hub_links.py checks that both agree). No network: only the page is read.
(function () {
  "use strict";

  function hubAddress(text) {
    var hub = String(text).trim().replace(/\/+$/, "");
    if (!/^https?:\/\/[^\/?#\s]+(\/[^?#\s]*)?$/.test(hub)) return null;
    return hub;
  }

  function targetFolder(repo) {
    // nbgitpuller's own default: the last segment, ".git" included
    return repo.replace(/\/+$/, "").split("/").pop();
  }

  function pullLink(hub, repo, branch, path) {
    var base = hubAddress(hub);
    if (base === null) return null;
    var urlpath = "lab/tree/" + targetFolder(repo) + "/" + path.replace(/^\/+|\/+$/g, "");
    return base + "/hub/user-redirect/git-pull?repo=" + encodeURIComponent(repo) +
      "&branch=" + encodeURIComponent(branch) + "&urlpath=" + encodeURIComponent(urlpath);
  }

  if (typeof module !== "undefined" && module.exports) {
    module.exports = { pullLink: pullLink, hubAddress: hubAddress };
    return;
  }

  var KEY = "hub-links-address";

  function fill(panel, input) {
    var hub = hubAddress(input.value);
    var status = panel.querySelector(".hub-links-status");
    panel.querySelectorAll("a.hub-link").forEach(function (a) {
      var link = hub && pullLink(hub, panel.dataset.repo, panel.dataset.branch,
                                 a.dataset.path);
      if (link) a.setAttribute("href", link); else a.removeAttribute("href");
    });
    status.textContent = hub || !input.value.trim() ? "" : panel.dataset.invalid;
    if (hub) try { localStorage.setItem(KEY, hub); } catch (e) { /* private mode */ }
  }

  function start() {
    document.querySelectorAll(".hub-links").forEach(function (panel) {
      var input = panel.querySelector("#hub-address");
      try { input.value = localStorage.getItem(KEY) || ""; } catch (e) { /* none */ }
      input.addEventListener("input", function () { fill(panel, input); });
      fill(panel, input);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
