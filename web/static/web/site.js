// Every page: a select marked data-autosubmit (the language) sends its form when changed. Kept out of the
// page itself: the Content-Security-Policy runs scripts from our own files only.
document.addEventListener("change", (event) => {
  const field = event.target;
  if (field instanceof HTMLSelectElement && field.hasAttribute("data-autosubmit") && field.form) {
    field.form.submit();
  }
});
