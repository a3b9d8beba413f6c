<?php
Route::get("/", fn () => view("welcome"));
