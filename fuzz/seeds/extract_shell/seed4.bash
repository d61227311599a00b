helper() { :; }

