module example.com/mkprof

go 1.19
