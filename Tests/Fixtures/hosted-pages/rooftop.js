document.querySelectorAll("button.reveal").forEach(function (button) {
  var field = document.getElementById(button.getAttribute("aria-controls"));
  if (!field) { return; }
  button.hidden = false;
  button.addEventListener("click", function () {
    var shown = field.type === "text";
    field.type = shown ? "password" : "text";
    button.setAttribute("aria-pressed", shown ? "false" : "true");
    button.textContent = shown ? button.dataset.show : button.dataset.hide;
  });
});