document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("[data-confirm-name]").forEach(function (input) {
    var button = input.form && input.form.querySelector("[data-confirm-button]");
    if (!button) { return; }
    var update = function () { button.disabled = input.value !== input.getAttribute("data-confirm-name"); };
    input.addEventListener("input", update);
    update();
  });
});